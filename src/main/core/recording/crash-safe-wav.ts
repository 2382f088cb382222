import { open, type FileHandle } from 'node:fs/promises';
import { VerbatimError } from '../../../shared/errors';
import { systemClock, type Clock } from '../../base/clock';
import type { IDisposable } from '../../base/lifecycle';
import { type PcmFormat, pcm16FrameBytes, pcm16WavHeader, wavHeaderBytes } from '../media/wav-header';

/**
 * A recording written as it arrives, so a crash, a power cut or a SIGKILL loses at most the last
 * second (issue #23). The file is a canonical 44-byte PCM16 WAV: its header is written first with
 * no sound, every chunk is written where the sound ends, and once a second the header's two sizes
 * are brought up to date and the file synced to disk. What the operating system has been handed
 * survives the process; the header may lag behind the sound, so the next start repairs it from the
 * file's length (`repairWav`), dropping a half-written frame.
 */

export class CrashSafeWavWriter {
  /** Sound bytes handed to the operating system (whole frames or not). */
  private written = 0;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly headerRefresh: IDisposable;

  private constructor(
    private readonly handle: FileHandle,
    readonly format: PcmFormat,
    clock: Clock,
    headerEveryMs: number,
  ) {
    // A refresh that fails is tried again on the next tick and at close(): the sound is still written.
    this.headerRefresh = clock.setInterval(() => {
      this.enqueue(() => this.refreshHeader()).catch(() => undefined);
    }, headerEveryMs);
  }

  /** Starts a new file at `path`; an existing file is never replaced. */
  static async create(
    path: string,
    format: PcmFormat,
    options: { clock?: Clock; headerEveryMs?: number } = {},
  ): Promise<CrashSafeWavWriter> {
    if (!Number.isInteger(format.channels) || format.channels < 1 || format.channels > 2)
      throw new VerbatimError('invalid_input', 'A recording has one channel or two.');
    if (!Number.isInteger(format.sampleRate) || format.sampleRate < 8000 || format.sampleRate > 192_000)
      throw new VerbatimError(
        'invalid_input',
        `${format.sampleRate} Hz is not a sample rate Verbatim records at.`,
      );
    let handle: FileHandle;
    try {
      handle = await open(path, 'wx');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new VerbatimError(
        code === 'EEXIST' ? 'conflict' : 'storage',
        code === 'EEXIST'
          ? `${path} is there already; a recording never replaces a file.`
          : `The recording could not be started at ${path}: ${(error as Error).message}`,
        { path, code },
      );
    }
    await handle.write(pcm16WavHeader(format, 0), 0, wavHeaderBytes, 0);
    return new CrashSafeWavWriter(
      handle,
      format,
      options.clock ?? systemClock,
      options.headerEveryMs ?? 1000,
    );
  }

  /** Sound bytes written so far. */
  get bytes(): number {
    return this.written;
  }

  /**
   * Writes a chunk of PCM16 after the sound before it; resolves once the OS has it. A disk that
   * takes only part of it (it is full) keeps that part, counted, and the chunk is refused with
   * `diskFull`: what is on disk and what the header will say stay the same.
   */
  append(pcm: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new VerbatimError('conflict', 'This recording has stopped.'));
    return this.enqueue(async () => {
      let done = 0;
      try {
        while (done < pcm.length) {
          const { bytesWritten } = await this.handle.write(
            pcm,
            done,
            pcm.length - done,
            wavHeaderBytes + this.written,
          );
          if (bytesWritten === 0) throw diskFull();
          done += bytesWritten;
          this.written += bytesWritten;
        }
      } catch (error) {
        throw (error as NodeJS.ErrnoException).code === 'ENOSPC' ? diskFull() : error;
      }
    });
  }

  /**
   * Ends the file: a half frame at its end is cut, the header says exactly the sound it holds,
   * synced, and the file closed. Answers the bytes of sound kept (whole frames). A chunk refused
   * before (a full disk) was said to its writer and does not stop the file being made whole;
   * only a failure to write this last header is thrown.
   */
  async close(): Promise<number> {
    if (this.closed) return this.whole();
    this.closed = true;
    this.headerRefresh.dispose();
    await this.queue;
    try {
      if (this.written !== this.whole()) await this.handle.truncate(wavHeaderBytes + this.whole());
      await this.refreshHeader();
    } finally {
      await this.handle.close();
    }
    return this.whole();
  }

  /** Sound bytes in whole frames: what the header says. */
  private whole(): number {
    const blockAlign = pcm16FrameBytes(this.format);
    return this.written - (this.written % blockAlign);
  }

  private async refreshHeader(): Promise<void> {
    await this.handle.write(pcm16WavHeader(this.format, this.whole()), 0, wavHeaderBytes, 0);
    await this.handle.datasync();
  }

  /** Work in order; the caller of a failed step hears of it, and the chain goes on. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** A write the disk had no room for, said as such (ENOSPC reads "no space left on device, write"). */
function diskFull(): VerbatimError {
  return new VerbatimError('storage', 'the disk is full', { code: 'ENOSPC' });
}

/** Whether a chunk was refused because the disk is full (append's `diskFull`). */
export function isDiskFull(error: unknown): boolean {
  return (
    error instanceof VerbatimError && (error.details as { code?: unknown } | undefined)?.code === 'ENOSPC'
  );
}

export interface RepairedWav {
  /** Whether the header was rewritten (it lagged behind the sound, or a half frame was cut). */
  repaired: boolean;
  format: PcmFormat;
  dataBytes: number;
  durationMs: number;
}

/**
 * Makes a recording cut short by a crash a valid WAV again: the sizes in its header are set from
 * the file's length, and a half-written frame at the end is dropped. A file that is not a
 * recording Verbatim started (another header) is refused, never rewritten.
 */
export async function repairWav(path: string): Promise<RepairedWav> {
  const handle = await open(path, 'r+');
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(wavHeaderBytes);
    const { bytesRead } = await handle.read(header, 0, wavHeaderBytes, 0);
    const canonical =
      bytesRead === wavHeaderBytes &&
      header.toString('latin1', 0, 4) === 'RIFF' &&
      header.toString('latin1', 8, 16) === 'WAVEfmt ' &&
      header.readUInt32LE(16) === 16 &&
      header.readUInt16LE(20) === 1 &&
      header.readUInt16LE(34) === 16 &&
      header.toString('latin1', 36, 40) === 'data';
    if (!canonical)
      throw new VerbatimError(
        'invalid_input',
        `${path} is not a recording Verbatim started; it was left as it is.`,
      );
    const format = { channels: header.readUInt16LE(22), sampleRate: header.readUInt32LE(24) };
    const blockAlign = pcm16FrameBytes(format);
    const sound = Math.max(0, size - wavHeaderBytes);
    const dataBytes = sound - (sound % blockAlign);
    const repaired =
      header.readUInt32LE(40) !== dataBytes ||
      header.readUInt32LE(4) !== 36 + dataBytes ||
      sound !== dataBytes;
    if (repaired) {
      if (sound !== dataBytes) await handle.truncate(wavHeaderBytes + dataBytes);
      await handle.write(pcm16WavHeader(format, dataBytes), 0, wavHeaderBytes, 0);
      await handle.datasync();
    }
    return {
      repaired,
      format,
      dataBytes,
      durationMs: Math.round((dataBytes / blockAlign / format.sampleRate) * 1000),
    };
  } finally {
    await handle.close();
  }
}
