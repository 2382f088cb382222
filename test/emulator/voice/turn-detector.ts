import { BYTES_PER_SAMPLE, frameRms, SAMPLE_RATE } from './pcm';

/**
 * Energy-based turn detection on the incoming audio. The audio is cut into 20 ms frames; a frame
 * is speech when its RMS exceeds the session's vad_threshold (a fraction of full scale). Speech
 * starts after 60 ms of consecutive speech frames and stops after 500 ms of consecutive
 * non-speech frames. Everything is counted in audio time, not wall time, so a client may send
 * audio faster than real time and still get the same turns.
 */

const FRAME_MS = 20;
const FRAME_BYTES = (SAMPLE_RATE * FRAME_MS * BYTES_PER_SAMPLE) / 1000;
const FRAMES_TO_START = 60 / FRAME_MS;
const FRAMES_TO_STOP = 500 / FRAME_MS;

export interface TurnListener {
  speechStarted(): void;
  /** Called for each further speech frame of the turn with the turn's speech so far. */
  speechContinued(speechMs: number): void;
  speechStopped(): void;
}

export class TurnDetector {
  private remainder = Buffer.alloc(0);
  private speaking = false;
  private speechRun = 0;
  private silenceRun = 0;
  private speechFrames = 0;

  constructor(
    private readonly threshold: () => number,
    private readonly listener: TurnListener,
  ) {}

  push(pcm: Buffer): void {
    const audio = this.remainder.length > 0 ? Buffer.concat([this.remainder, pcm]) : pcm;
    let offset = 0;
    for (; offset + FRAME_BYTES <= audio.length; offset += FRAME_BYTES) {
      this.frame(frameRms(audio, offset, FRAME_BYTES / BYTES_PER_SAMPLE) > this.threshold());
    }
    this.remainder = Buffer.from(audio.subarray(offset));
  }

  /** Forgets a turn in progress, e.g. when the connection that carried it drops. */
  reset(): void {
    this.remainder = Buffer.alloc(0);
    this.speaking = false;
    this.speechRun = 0;
    this.silenceRun = 0;
    this.speechFrames = 0;
  }

  private frame(isSpeech: boolean): void {
    if (!this.speaking) {
      this.speechRun = isSpeech ? this.speechRun + 1 : 0;
      if (this.speechRun < FRAMES_TO_START) return;
      this.speaking = true;
      this.speechFrames = this.speechRun;
      this.silenceRun = 0;
      this.listener.speechStarted();
      return;
    }
    if (isSpeech) {
      this.silenceRun = 0;
      this.speechFrames += 1;
      this.listener.speechContinued(this.speechFrames * FRAME_MS);
      return;
    }
    this.silenceRun += 1;
    if (this.silenceRun < FRAMES_TO_STOP) return;
    this.speaking = false;
    this.speechRun = 0;
    this.listener.speechStopped();
  }
}
