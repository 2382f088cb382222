import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { UploadSource } from '../transcription/recording-file';

export interface StreamUploadRequest {
  url: string;
  headers: Record<string, string>;
  body: UploadSource;
  signal?: AbortSignal;
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
export const nodeStreamUpload: StreamUpload = ({ url, headers, body, signal }) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(body.size) },
      signal,
    });
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
      () => request.end(),
      (error: unknown) => {
        // A failed body (stall, cancel, unreadable file) fails the request; its own error wins.
        request.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
