import { open, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { basename } from 'node:path';
import { VerbatimError } from '../../../shared/errors';

/** The real service's upload limit (its docs; the spec leaves it unstated). */
export const maxUploadBytes = 2.2e9;

export interface RecordingInfo {
  path: string;
  name: string;
  size: number;
  format: string;
  /** Known for WAV; estimated from size for compressed formats, undefined when unknown. */
  estimatedDurationMs: number | undefined;
}

/** Signatures of the audio and video containers people record in. */
const signatures: { format: string; test: (head: Buffer) => boolean }[] = [
  {
    format: 'wav',
    test: (h) => h.toString('latin1', 0, 4) === 'RIFF' && h.toString('latin1', 8, 12) === 'WAVE',
  },
  {
    format: 'aiff',
    test: (h) =>
      h.toString('latin1', 0, 4) === 'FORM' && ['AIFF', 'AIFC'].includes(h.toString('latin1', 8, 12)),
  },
  {
    format: 'mp3',
    test: (h) =>
      h.toString('latin1', 0, 3) === 'ID3' ||
      (h[0] === 0xff && ((h[1] ?? 0) & 0xe0) === 0xe0 && ((h[1] ?? 0) & 0x06) !== 0),
  },
  { format: 'aac', test: (h) => h[0] === 0xff && ((h[1] ?? 0) & 0xf6) === 0xf0 },
  { format: 'ogg', test: (h) => h.toString('latin1', 0, 4) === 'OggS' },
  { format: 'flac', test: (h) => h.toString('latin1', 0, 4) === 'fLaC' },
  { format: 'mp4', test: (h) => h.toString('latin1', 4, 8) === 'ftyp' },
  { format: 'webm', test: (h) => h.readUInt32BE(0) === 0x1a45dfa3 },
  { format: 'asf', test: (h) => h.toString('hex', 0, 4) === '3026b275' },
  { format: 'amr', test: (h) => h.toString('latin1', 0, 5) === '#!AMR' },
  { format: 'caf', test: (h) => h.toString('latin1', 0, 4) === 'caff' },
];

/**
 * Checks that a file can be sent before any job is created: it exists, can be read, is not
 * empty, fits the service's limit, and looks like audio or video.
 */
export async function inspectRecording(path: string): Promise<RecordingInfo> {
  const name = basename(path);
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new VerbatimError('invalid_input', `"${name}" is a folder, not a recording.`);
    size = info.size;
  } catch (error) {
    if (error instanceof VerbatimError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT')
      throw new VerbatimError('not_found', `"${name}" was not found. It may have been moved or deleted.`, {
        path,
      });
    if (code === 'EACCES' || code === 'EPERM')
      throw new VerbatimError(
        'invalid_input',
        `Verbatim is not allowed to read "${name}". Check the file's permissions.`,
        { path },
      );
    throw new VerbatimError('invalid_input', `"${name}" cannot be read (${code ?? 'unknown error'}).`, {
      path,
    });
  }
  if (size === 0)
    throw new VerbatimError('invalid_input', `"${name}" is empty: there is no recording in it.`, { path });
  if (size > maxUploadBytes) {
    throw new VerbatimError(
      'invalid_input',
      `"${name}" is ${(size / 1e9).toFixed(1)} GB; the service accepts files up to 2.2 GB. Split or compress it first.`,
      { path },
    );
  }
  const head = Buffer.alloc(64);
  try {
    const handle = await open(path, 'r');
    try {
      await handle.read(head, 0, 64, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new VerbatimError(
      'invalid_input',
      `Verbatim is not allowed to read "${name}" (${code ?? 'unknown error'}).`,
      { path },
    );
  }
  const format = sniffFormat(head);
  if (!format) {
    throw new VerbatimError(
      'invalid_input',
      `"${name}" does not look like an audio or video file. Verbatim accepts recordings such as MP3, M4A, WAV, OGG, FLAC, WebM and MP4.`,
      { path },
    );
  }
  return { path, name, size, format, estimatedDurationMs: estimateDuration(format, head, size) };
}

export function sniffFormat(head: Buffer): string | undefined {
  return signatures.find((signature) => signature.test(head))?.format;
}

export function estimateDuration(format: string, head: Buffer, size: number): number | undefined {
  if (format === 'wav' && head.length >= 32 && head.toString('latin1', 12, 16) === 'fmt ') {
    const byteRate = head.readUInt32LE(28);
    return byteRate > 0 ? Math.round(((size - 44) / byteRate) * 1000) : undefined;
  }
  // Compressed speech is commonly 64-128 kbit/s: assume 96 for a first polling estimate.
  return Math.round((size / 12_000) * 1000);
}

export interface UploadStreamOptions {
  onProgress?: (bytesSent: number, bytesTotal: number) => void;
  signal?: AbortSignal;
  /** No bytes taken by the network for this long means the upload has stalled. */
  stallMs?: number;
  chunkBytes?: number;
}

/**
 * The recording as a stream read from disk only as fast as the network takes it, so memory
 * stays flat whatever the size. Reports progress, and errors out if the network stops taking
 * bytes for `stallMs` (uploads have no overall timeout: a 2 GB file on a slow line is fine).
 */
export function uploadStream(info: RecordingInfo, options: UploadStreamOptions = {}): Readable {
  const stallMs = options.stallMs ?? 60_000;
  let sent = 0;
  let stallTimer: ReturnType<typeof setTimeout> | undefined;
  const chunkBytes = options.chunkBytes ?? 1024 * 1024;
  const counter = new Transform({
    // Room for one chunk ahead, so the disk read overlaps the socket write.
    highWaterMark: chunkBytes,
    transform(chunk: Buffer, _encoding, callback) {
      sent += chunk.length;
      armStall();
      options.onProgress?.(sent, info.size);
      callback(null, chunk);
    },
    flush(callback) {
      clearTimeout(stallTimer);
      callback();
    },
  });
  const file = createReadStream(info.path, { highWaterMark: chunkBytes });
  const fail = (error: VerbatimError): void => {
    clearTimeout(stallTimer);
    file.destroy();
    counter.destroy(error);
  };
  function armStall(): void {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(
      () =>
        fail(
          new VerbatimError(
            'timeout',
            `The upload of "${info.name}" stalled: the connection stopped taking data for ${Math.round(stallMs / 1000)} s.`,
          ),
        ),
      stallMs,
    );
  }
  file.on('error', (error) =>
    fail(new VerbatimError('storage', `Reading "${info.name}" failed: ${error.message}`)),
  );
  options.signal?.addEventListener(
    'abort',
    () => fail(new VerbatimError('cancelled', `The upload of "${info.name}" was cancelled.`)),
    {
      once: true,
    },
  );
  counter.on('close', () => clearTimeout(stallTimer));
  armStall();
  return file.pipe(counter);
}
