import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { type Readable, Transform, pipeline } from 'node:stream';

export interface FileResponse {
  status: 200 | 206 | 404 | 416;
  headers: Record<string, string>;
  body: Readable | undefined;
}

const mediaTypes: Record<string, string> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.flac': 'audio/flac',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.mkv': 'video/x-matroska',
};

/** Bytes [from, to) of a file. */
export interface ByteRange {
  from: number;
  to: number;
}

/**
 * Bytes of the file to send as `fill` instead of what the file holds (the samples of a redacted
 * word, silenced), sorted and not overlapping.
 */
export interface ByteRewrite {
  ranges: readonly ByteRange[];
  fill: number;
}

/** Writes `fill` over the part of each range that falls in `bytes`, which hold the file from `position`. */
export function fillRanges(bytes: Uint8Array, position: number, rewrite: ByteRewrite): void {
  const end = position + bytes.length;
  for (const range of firstRangesFrom(rewrite.ranges, position)) {
    if (range.from >= end) break;
    bytes.fill(rewrite.fill, Math.max(range.from, position) - position, Math.min(range.to, end) - position);
  }
}

/** The ranges that end after `position`, found by bisection: a long recording has thousands. */
function* firstRangesFrom(ranges: readonly ByteRange[], position: number): Generator<ByteRange> {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ranges[middle]?.to ?? 0) <= position) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < ranges.length; index++) yield ranges[index] as ByteRange;
}

/** The file's bytes from `start` with the rewrite applied as they stream. */
function rewritten(body: Readable, start: number, rewrite: ByteRewrite | undefined): Readable {
  if (!rewrite || rewrite.ranges.length === 0) return body;
  let position = start;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      fillRanges(chunk, position, rewrite);
      position += chunk.length;
      done(null, chunk);
    },
  });
  // pipeline closes the file when the player drops the rest of the range (a seek), and a read
  // failure destroys `transform` with it, so whoever streams the response sees the error.
  return pipeline(body, transform, () => undefined);
}

/** Is this a recording (audio or video) by its extension? */
export function isMediaFile(path: string): boolean {
  return Object.hasOwn(mediaTypes, extname(path).toLowerCase());
}

/**
 * A recording served with HTTP range requests, so the player can seek anywhere in a
 * three-hour file without reading it all: one implementation for Electron's custom protocol
 * and the web host. With a rewrite, the bytes it names are sent as its fill (see ByteRewrite).
 */
export async function serveFileRange(
  path: string,
  rangeHeader: string | null | undefined,
  rewrite?: ByteRewrite,
): Promise<FileResponse> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return { status: 404, headers: {}, body: undefined };
    size = info.size;
  } catch {
    return { status: 404, headers: {}, body: undefined };
  }
  const type = mediaTypes[extname(path).toLowerCase()] ?? 'application/octet-stream';
  const base = { 'Content-Type': type, 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-store' };
  if (!rangeHeader) {
    return {
      status: 200,
      headers: { ...base, 'Content-Length': String(size) },
      body: rewritten(createReadStream(path), 0, rewrite),
    };
  }
  // Several ranges ("bytes=0-99, 200-299") get the first one: a player asks for one at a time,
  // and a multipart answer helps no one here (RFC 9110 lets a server send fewer ranges).
  const spec = /^bytes=(.*)$/i.exec(rangeHeader.trim());
  if (!spec) {
    // A Range in another unit is ignored, as RFC 9110 says: the whole file.
    return {
      status: 200,
      headers: { ...base, 'Content-Length': String(size) },
      body: rewritten(createReadStream(path), 0, rewrite),
    };
  }
  const match = /^\s*(\d*)-(\d*)\s*$/.exec(spec[1]!.split(',')[0] ?? '');
  let start: number;
  let end: number;
  if (!match || (match[1] === '' && match[2] === '')) return unsatisfiable(size);
  if (match[1] === '') {
    // A suffix range: the last N bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return unsatisfiable(size);
  return {
    status: 206,
    headers: {
      ...base,
      'Content-Length': String(end - start + 1),
      'Content-Range': `bytes ${start}-${end}/${size}`,
    },
    body: rewritten(createReadStream(path, { start, end }), start, rewrite),
  };
}

function unsatisfiable(size: number): FileResponse {
  return { status: 416, headers: { 'Content-Range': `bytes */${size}` }, body: undefined };
}
