import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Readable } from 'node:stream';

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

/** Is this a recording (audio or video) by its extension? */
export function isMediaFile(path: string): boolean {
  return Object.hasOwn(mediaTypes, extname(path).toLowerCase());
}

/**
 * A recording served with HTTP range requests, so the player can seek anywhere in a
 * three-hour file without reading it all: one implementation for Electron's custom protocol
 * and the web host.
 */
export async function serveFileRange(
  path: string,
  rangeHeader: string | null | undefined,
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
      body: createReadStream(path),
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
      body: createReadStream(path),
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
    body: createReadStream(path, { start, end }),
  };
}

function unsatisfiable(size: number): FileResponse {
  return { status: 416, headers: { 'Content-Range': `bytes */${size}` }, body: undefined };
}
