import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RunningEmulator } from '../server';

/** Shared plumbing of this module's tests: HTTP calls with the key, uploads, polling. */

export const FIXTURES = resolve(import.meta.dirname, '../../fixtures');

export function fixture(name: string): Buffer {
  return readFileSync(resolve(FIXTURES, name));
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: Record<string, unknown>;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw bytes instead of a JSON body. */
  bytes?: Uint8Array;
  /** Override or drop (undefined) the Authorization header. */
  authorization?: string | undefined;
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly key: string,
  ) {}

  static of(emulator: RunningEmulator, region: 'us' | 'eu' = 'us'): Api {
    const baseUrl = region === 'us' ? emulator.url : emulator.euUrl;
    if (!baseUrl) throw new Error('The emulator was started without an EU port');
    return new Api(baseUrl, emulator.options.key);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    const authorization = 'authorization' in options ? options.authorization : this.key;
    if (authorization !== undefined) headers.Authorization = authorization;
    let body: Uint8Array | string | undefined;
    if (options.bytes) {
      headers['Content-Type'] = 'application/octet-stream';
      body = options.bytes;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(path.startsWith('http') ? path : `${this.baseUrl}${path}`, {
      method,
      headers,
      body,
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Not JSON (subtitles, audio): the text is what the test reads.
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  get(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('GET', path, options);
  }

  post(path: string, body: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('POST', path, { ...options, body });
  }

  delete(path: string): Promise<ApiResponse> {
    return this.request('DELETE', path);
  }

  /** Uploads bytes and returns the upload_url. */
  async upload(bytes: Uint8Array): Promise<string> {
    const response = await this.request('POST', '/v2/upload', { bytes });
    if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${response.text}`);
    return response.json.upload_url as string;
  }

  /** Creates a transcript and returns its id. */
  async submit(body: Record<string, unknown>): Promise<string> {
    const response = await this.post('/v2/transcript', body);
    if (response.status !== 200) throw new Error(`submit failed: ${response.status} ${response.text}`);
    return response.json.id as string;
  }

  /** Polls until the transcript is completed or failed, and returns it. */
  async waitUntilDone(id: string): Promise<Record<string, unknown>> {
    return poll(async () => {
      const { json } = await this.get(`/v2/transcript/${id}`);
      return json.status === 'completed' || json.status === 'error' ? json : undefined;
    });
  }

  async transcribe(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.waitUntilDone(await this.submit(body));
  }
}

/** Calls `probe` until it returns a value; generous, since these tests assert no timings. */
export async function poll<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('Timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
