import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { CHUNK_BYTES, CHUNK_MS } from './pcm';
import type { AudioSink } from './playback-queue';
import type { AssistantAudio } from './assistant-service';
import { systemClock, type Clock } from '../../base/clock';
import type { IDisposable } from '../../base/lifecycle';
import type { AudioSource } from './voice-session';

/**
 * Audio from and to raw PCM16 24 kHz mono data instead of a sound card: for the command line,
 * the web host's end-to-end tests and the benchmark.
 */

/** Plays recorded PCM as a microphone would: 50 ms chunks, `speed` times faster than real time. */
export class BufferSource implements AudioSource {
  private pacing: IDisposable | undefined;
  private offset = 0;

  constructor(
    private readonly pcm: Buffer,
    private readonly options: { speed?: number; clock?: Clock; onEnd?: () => void } = {},
  ) {}

  start(onAudio: (pcm: Buffer) => void): void {
    const clock = this.options.clock ?? systemClock;
    const interval = CHUNK_MS / (this.options.speed ?? 1);
    const started = clock.now();
    let sent = 0;
    const tick = (): void => {
      if (this.offset >= this.pcm.length) {
        this.pacing = undefined;
        this.options.onEnd?.();
        return;
      }
      onAudio(this.pcm.subarray(this.offset, this.offset + CHUNK_BYTES));
      this.offset += CHUNK_BYTES;
      sent += 1;
      // Scheduled from the start, so timer lateness does not add up over a long file.
      this.pacing = clock.setTimeout(tick, started + sent * interval - clock.now());
    };
    tick();
  }

  stop(): Promise<void> {
    this.pacing?.dispose();
    this.pacing = undefined;
    return Promise.resolve();
  }
}

/** Writes the agent's voice to a raw file, with the file stream's backpressure. */
export class FileSink implements AudioSink {
  private readonly stream: WriteStream;

  constructor(path: string) {
    this.stream = createWriteStream(path);
  }

  write(pcm: Buffer): boolean {
    return this.stream.write(pcm);
  }

  async drained(): Promise<void> {
    await once(this.stream, 'drain');
  }

  /** Written audio is already "played": nothing is held back to drop. */
  flush(): void {}

  async close(): Promise<void> {
    if (this.stream.closed) return;
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }
}

/**
 * The assistant's devices as recordings: every session "hears" `input` (PCM16 24 kHz), played
 * at `speed`, and its voice goes to `outputPath`. For the web host's end-to-end tests and demos.
 */
export function rawFileAudio(options: { input: Buffer; outputPath: string; speed?: number }): AssistantAudio {
  return {
    devices: () => [
      { id: 0, name: 'Recording (raw PCM file)', inputs: 1, outputs: 1, defaultSampleRate: 24_000 },
    ],
    source: () => new BufferSource(options.input, { speed: options.speed }),
    sink: () => new FileSink(options.outputPath),
  };
}
