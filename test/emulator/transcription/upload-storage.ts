import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The real service accepts uploads up to 2.2 GB. */
export const MAX_UPLOAD_BYTES = 2_200_000_000;

export class UploadTooLargeError extends Error {
  constructor(limit: number) {
    super(`Upload too large: the maximum file size is ${formatBytes(limit)}`);
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1e9 ? `${bytes / 1e9} GB` : `${bytes} bytes`;
}

/**
 * Streams a request body into `path` chunk by chunk (backpressure keeps memory flat whatever
 * the size) and returns the byte count. Past `limit` it stops with UploadTooLargeError but
 * leaves the request open, so the caller can still answer 413 on it.
 */
export async function streamBodyToFile(req: IncomingMessage, path: string, limit: number): Promise<number> {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > limit) callback(new UploadTooLargeError(limit));
      else callback(null, chunk);
    },
  });
  // Not pipeline(req, ...): that would destroy the request (and the socket) on the limit error.
  req.on('close', () => {
    if (!req.complete) counter.destroy(new Error('The client aborted the upload'));
  });
  req.pipe(counter);
  await pipeline(counter, createWriteStream(path));
  return size;
}
