import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { HttpClient, abortableSleep, withoutCredentials, type AuthStyle } from './http-client';
import { ServiceError, parseErrorBody } from './service-error';
import { backoffDelay, parseRetryAfter } from './retry-policy';
import { defaultNetworkBounds } from './network-bounds';
import { VerbatimError } from '../../../shared/errors';

type Reply = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server;
let baseUrl: string;
let replies: Reply[] = [];
const seen: { method: string; url: string; authorization: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body,
      });
      const reply = replies.shift() ?? json(200, { ok: true });
      reply(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  replies = [];
  seen.length = 0;
});

function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}
const text =
  (status: number, body: string): Reply =>
  (_req, res) =>
    res.writeHead(status).end(body);
const reset: Reply = (req) => req.socket.destroy();

function client(options: { authStyle?: AuthStyle; timeoutMs?: number; callMs?: number; key?: string } = {}) {
  const sleeps: number[] = [];
  const retries: number[] = [];
  const http = new HttpClient({
    service: 'transcription service',
    baseUrl: `${baseUrl}/api`,
    apiKey: () => options.key ?? 'secret-key',
    authStyle: options.authStyle ?? 'raw',
    fetch: (input, init) => fetch(input, init),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    now: () => Date.parse('2026-01-01T00:00:00Z'),
    random: () => 0.5,
    bounds: {
      ...defaultNetworkBounds,
      idleMs: options.timeoutMs ?? 2000,
      callMs: options.callMs ?? 10_000,
    },
    retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 },
    onRetry: ({ attempt }) => retries.push(attempt),
  });
  return { http, sleeps, retries };
}

/** An upload body held in memory. */
function memorySource(bytes: Buffer) {
  return {
    name: 'bytes',
    size: bytes.length,
    writeTo: (sink: (chunk: Uint8Array) => Promise<void>) => sink(bytes),
  };
}

const itemSchema = z.object({ id: z.string(), count: z.number() });

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('the HTTP layer', () => {
  it('sends the key raw or as a bearer token, and builds URLs under the base path', async () => {
    const raw = client();
    await raw.http.request({
      method: 'GET',
      path: '/v2/thing',
      query: { limit: 5, skip: undefined },
      responseType: 'text',
    });
    expect(seen[0]).toMatchObject({ url: '/api/v2/thing?limit=5', authorization: 'secret-key' });
    const bearer = client({ authStyle: 'bearer' });
    await bearer.http.request({ method: 'POST', path: 'models', json: { a: 1 }, responseType: 'text' });
    expect(seen[1]).toMatchObject({
      method: 'POST',
      url: '/api/models',
      authorization: 'Bearer secret-key',
      body: '{"a":1}',
    });
  });

  it('validates responses and tolerates fields it does not know', async () => {
    replies = [json(200, { id: 'a', count: 2, brandNew: true })];
    expect(await client().http.request({ method: 'GET', path: 'x', schema: itemSchema })).toEqual({
      id: 'a',
      count: 2,
    });
    replies = [json(200, { id: 'a' })];
    const error = await client()
      .http.request({ method: 'GET', path: 'x', schema: itemSchema })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerbatimError);
    expect((error as VerbatimError).message).toContain('count');
  });

  it.each([429, 500, 502, 503, 504])('retries a %i with backoff and succeeds', async (status) => {
    replies = [
      json(status, { error: 'hiccup' }),
      json(status, { error: 'hiccup' }),
      json(200, { id: 'b', count: 1 }),
    ];
    const { http, sleeps } = client();
    expect(await http.request({ method: 'GET', path: 'x', schema: itemSchema })).toEqual({
      id: 'b',
      count: 1,
    });
    expect(seen).toHaveLength(3);
    expect(sleeps).toEqual([75, 150]); // full jitter with random() = 0.5
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    replies = [
      json(429, { error: 'slow down' }, { 'Retry-After': '7' }),
      json(429, { error: 'slow down' }, { 'Retry-After': 'Thu, 01 Jan 2026 00:00:03 GMT' }),
      json(200, { id: 'c', count: 0 }),
    ];
    const { http, sleeps } = client();
    await http.request({ method: 'GET', path: 'x', schema: itemSchema });
    expect(sleeps).toEqual([7000, 3000]);
  });

  it.each([400, 401, 403, 404, 409, 422])('never retries a %i', async (status) => {
    replies = [json(status, { error: 'no' })];
    const error = await failure(client().http.request({ method: 'GET', path: 'x', responseType: 'text' }));
    expect(error.status).toBe(status);
    expect(seen).toHaveLength(1);
  });

  it('gives up after the last attempt with the service message', async () => {
    replies = Array.from({ length: 4 }, () => json(503, { error: 'maintenance' }));
    const error = await failure(client().http.request({ method: 'GET', path: 'x', responseType: 'text' }));
    expect(seen).toHaveLength(4);
    expect(error).toMatchObject({ code: 'service', status: 503, serviceMessage: 'maintenance' });
    expect(error.message).toContain('maintenance');
  });

  it('retries a reset connection and a broken JSON body', async () => {
    replies = [reset, text(200, '{"id": "trunc'), json(200, { id: 'd', count: 4 })];
    const { http, retries } = client();
    expect(await http.request({ method: 'GET', path: 'x', schema: itemSchema })).toEqual({
      id: 'd',
      count: 4,
    });
    expect(retries).toEqual([1, 2]);
  });

  it('times out a silent service, and retries it', async () => {
    replies = [
      (_req, res) => setTimeout(() => res.writeHead(200).end('{}'), 600),
      json(200, { id: 'e', count: 5 }),
    ];
    const { http } = client({ timeoutMs: 100 });
    expect(await http.request({ method: 'GET', path: 'x', schema: itemSchema })).toEqual({
      id: 'e',
      count: 5,
    });
    replies = Array.from(
      { length: 4 },
      () => (_req: IncomingMessage, res: ServerResponse) => void setTimeout(() => res.end('{}'), 600),
    );
    const error = await failure(
      client({ timeoutMs: 50 }).http.request({ method: 'GET', path: 'x', responseType: 'text' }),
    );
    expect(error.code).toBe('timeout');
  });

  it('retries only rejections for requests that must not run twice', async () => {
    replies = [json(500, { error: 'maybe created' })];
    const error = await failure(
      client().http.request({
        method: 'POST',
        path: 'x',
        json: {},
        retry: 'rejections',
        responseType: 'text',
      }),
    );
    expect(error.status).toBe(500);
    expect(seen).toHaveLength(1);
    replies = [json(429, { error: 'busy' }), json(200, { id: 'f', count: 6 })];
    await client().http.request({
      method: 'POST',
      path: 'x',
      json: {},
      retry: 'rejections',
      schema: itemSchema,
    });
    expect(seen).toHaveLength(3);
    replies = [reset];
    await failure(
      client().http.request({
        method: 'POST',
        path: 'x',
        json: {},
        retry: 'rejections',
        responseType: 'text',
      }),
    );
    expect(seen).toHaveLength(4);
  });

  it('turns every error body shape into the service message', () => {
    expect(parseErrorBody('{"error": "Transcript not found"}')).toBe('Transcript not found');
    expect(
      parseErrorBody(
        '{"error": {"code": 403, "message": "Only management keys can perform this operation"}}',
      ),
    ).toBe('Only management keys can perform this operation');
    expect(parseErrorBody('Bad gateway')).toBe('Bad gateway');
    expect(parseErrorBody('<html><body><h1>502 Bad Gateway</h1></body></html>')).toBe('502 Bad Gateway');
    expect(parseErrorBody('')).toBeUndefined();
  });

  it('explains a refused key in words a journalist can act on', async () => {
    replies = [json(401, { error: 'Authentication error, API token missing/invalid' })];
    const error = await failure(client().http.request({ method: 'GET', path: 'x', responseType: 'text' }));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toMatch(/API key.*Settings/);
    expect(error.message).toContain('Authentication error');
  });

  it('is cancelled by its signal, also while waiting to retry', async () => {
    const controller = new AbortController();
    replies = [(_req, res) => setTimeout(() => res.end('{}'), 500)];
    const pending = client().http.request({
      method: 'GET',
      path: 'x',
      responseType: 'text',
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    expect((await failure(pending)).code).toBe('cancelled');

    const waiting = new HttpClient({
      service: 'transcription service',
      baseUrl,
      apiKey: () => 'k',
      authStyle: 'raw',
      fetch: (input, init) => fetch(input, init),
      sleep: abortableSleep,
      now: Date.now,
      random: () => 1,
      retry: { maxAttempts: 5, baseDelayMs: 10_000, maxDelayMs: 10_000 },
    });
    const second = new AbortController();
    replies = [json(503, { error: 'down' })];
    const retrying = waiting.request({
      method: 'GET',
      path: 'x',
      responseType: 'text',
      signal: second.signal,
    });
    setTimeout(() => second.abort(), 50);
    expect((await failure(retrying)).code).toBe('cancelled');
  });

  it('streams an upload body with its length, and never retries it', async () => {
    replies = [json(200, { id: 'up', count: 3 })];
    const body = Buffer.from('recording bytes');
    const uploaded = await client().http.upload({
      path: 'upload',
      body: memorySource(body),
      schema: itemSchema,
    });
    expect(uploaded).toEqual({ id: 'up', count: 3 });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/upload',
      authorization: 'secret-key',
      body: 'recording bytes',
    });
    replies = [json(503, { error: 'down' }, { 'Retry-After': '4' })];
    const error = await failure(
      client().http.upload({
        path: 'upload',
        body: memorySource(body),
        schema: itemSchema,
      }),
    );
    expect(error).toMatchObject({ code: 'service', status: 503, serviceMessage: 'down', retryAfterMs: 4000 });
    expect(seen).toHaveLength(2);
  });

  it('reports a failed upload connection as a network error', async () => {
    const refused = new HttpClient({
      service: 'transcription service',
      baseUrl: 'http://127.0.0.1:1',
      apiKey: () => 'k',
      authStyle: 'raw',
      fetch: (input, init) => fetch(input, init),
      sleep: () => Promise.resolve(),
      now: Date.now,
      random: Math.random,
    });
    const error = await failure(
      refused.upload({
        path: 'upload',
        body: memorySource(Buffer.from('x')),
        schema: itemSchema,
      }),
    );
    expect(error.code).toBe('network');
    expect(error.message).toContain('connection refused');
    expect(error.networkCause).toBe('ECONNREFUSED');
  });
});

describe('backoff and Retry-After', () => {
  it('grows exponentially up to the cap, with jitter between half and all of it', () => {
    const policy = { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, policy, () => 0)).toBe(50);
    expect(backoffDelay(1, policy, () => 1)).toBe(100);
    expect(backoffDelay(4, policy, () => 1)).toBe(800);
    expect(backoffDelay(9, policy, () => 1)).toBe(1000);
  });

  it('reads seconds and dates, and ignores nonsense', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('withoutCredentials', () => {
  it('drops a user name and password written into an address, and nothing else', () => {
    expect(
      withoutCredentials(
        'Request cannot be constructed from a URL that includes credentials: https://user:hunter2@example.com/api',
      ),
    ).toBe('Request cannot be constructed from a URL that includes credentials: https://example.com/api');
    expect(withoutCredentials('wss://token@voice.example/ws and http://127.0.0.1:8787/v2')).toBe(
      'wss://voice.example/ws and http://127.0.0.1:8787/v2',
    );
  });
});
