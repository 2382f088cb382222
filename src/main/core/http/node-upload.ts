import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { UploadSource } from '../transcription/recording-file';

export interface StreamUploadRequest {
  url: string;
  headers: Record<string, string>;
  body: UploadSource;
  signal?: AbortSignal;
  /** No byte either way for this long (the service stops taking, or never answers) ends it. */
  idleMs: number;
  /** The whole exchange ends within this, whatever the service does. */
  boundMs: number;
}

/** The upload was ended by a bound: the connection went quiet, or the whole took too long. */
export class UploadTimeout extends Error {
  constructor(
    readonly kind: 'quiet' | 'bound',
    /** Whether the service had taken every byte, and only its answer was missing. */
    readonly bodySent: boolean,
  ) {
    super(kind === 'quiet' ? 'the upload connection went quiet' : 'the upload took too long');
    this.name = 'UploadTimeout';
  }
}

export interface StreamUploadResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export type StreamUpload = (request: StreamUploadRequest) => Promise<StreamUploadResponse>;

/**
 * Sends a large body with real backpressure: the file is read only as fast as the socket
 * drains. Node 20's fetch buffers a streamed request body whole (a 1 GB upload cost 1.1 GB of
 * memory), so uploads go through node:http(s) with a declared Content-Length instead.
 */
export const nodeStreamUpload: StreamUpload = ({ url, headers, body, signal, idleMs, boundMs }) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(body.size) },
      signal,
    });
    let bodySent = false;
    const endBy = (kind: 'quiet' | 'bound'): void => {
      reject(new UploadTimeout(kind, bodySent));
      request.destroy();
    };
    // The socket's own idle timer sees bytes both ways: a stalled send and a missing answer.
    request.setTimeout(idleMs, () => endBy('quiet'));
    const bound = setTimeout(() => endBy('bound'), boundMs);
    request.on('close', () => clearTimeout(bound));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    // Each chunk is handed back once the socket has taken it, so its buffer can be reused.
    const write = (chunk: Uint8Array): Promise<void> =>
      new Promise((taken, failed) => request.write(chunk, (error) => (error ? failed(error) : taken())));
    body.writeTo(write).then(
      () => {
        bodySent = true;
        request.end();
      },
      (error: unknown) => {
        // A failed body (stall, cancel, unreadable file) fails the request; its own error wins.
        request.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
