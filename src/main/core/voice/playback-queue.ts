import { bytesForMs } from './pcm';

/** Where the agent's voice goes: a sound device, or a file. PCM16 mono at 24 kHz. */
export interface AudioSink {
  /** Queues PCM for playing; false means the device's buffer is full: wait for drained(). */
  write(pcm: Buffer): boolean;
  /** Resolves when the device can take more after write() said false. */
  drained(): Promise<void>;
  /** Drops what the device holds but has not played yet (barge-in: silence now). */
  flush(): void;
  close(): Promise<void>;
}

/** Written to the device 20 ms at a time, so a flush never waits behind a large write. */
export const WRITE_MS = 20;
const WRITE_BYTES = bytesForMs(WRITE_MS);

/**
 * The agent's reply audio on its way to the speaker: queued as it arrives, written in small
 * pieces while the device accepts them, and dropped at once on a barge-in.
 */
export class PlaybackQueue {
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private pumping = false;
  /** Bumped by flush(): a write loop waiting on the device stops when it sees a new value. */
  private generation = 0;
  private playingNow = false;

  constructor(
    private readonly sink: AudioSink,
    /** Told when playback starts (true) and when the queue has run dry or was flushed (false). */
    private readonly onPlaying: (playing: boolean) => void = () => undefined,
  ) {}

  /** True from the first queued byte until the queue is empty and written. */
  get playing(): boolean {
    return this.playingNow;
  }

  get pendingBytes(): number {
    return this.queuedBytes;
  }

  enqueue(pcm: Buffer): void {
    if (pcm.length === 0) return;
    this.queue.push(pcm);
    this.queuedBytes += pcm.length;
    this.setPlaying(true);
    if (!this.pumping) void this.pump();
  }

  /** Barge-in: forget every queued byte and silence the device. */
  flush(): void {
    this.generation += 1;
    this.queue = [];
    this.queuedBytes = 0;
    this.sink.flush();
    this.setPlaying(false);
  }

  async close(): Promise<void> {
    this.flush();
    await this.sink.close();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    const generation = this.generation;
    try {
      while (this.queue.length > 0 && generation === this.generation) {
        const head = this.queue[0]!;
        const piece = head.subarray(0, WRITE_BYTES);
        if (piece.length === head.length) this.queue.shift();
        else this.queue[0] = head.subarray(piece.length);
        this.queuedBytes -= piece.length;
        if (!this.sink.write(piece)) await this.sink.drained();
      }
    } finally {
      this.pumping = false;
    }
    if (generation !== this.generation) {
      // A flush happened while waiting; audio queued after it still needs a writer.
      if (this.queue.length > 0) void this.pump();
      return;
    }
    this.setPlaying(false);
  }

  private setPlaying(playing: boolean): void {
    if (playing === this.playingNow) return;
    this.playingNow = playing;
    this.onPlaying(playing);
  }
}
