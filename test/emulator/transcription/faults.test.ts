import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { Api, fixture } from './test-helpers';

let emulator: RunningEmulator;
let api: Api;
let transcriptId: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
  api = Api.of(emulator);
  transcriptId = (await api.transcribe({ audio_url: await api.upload(fixture('press-statement.wav')) }))
    .id as string;
});
afterAll(() => emulator.close());

async function injectFault(fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${emulator.url}/__admin/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(fault),
  });
  expect(response.status).toBe(200);
}

/** One request of each transcription route family the faults are tried on. */
const routes: [string, string, () => Promise<Response>][] = [
  [
    'GET',
    '^/v2/transcript/[^/]+$',
    () => fetch(`${api.baseUrl}/v2/transcript/${transcriptId}`, { headers: { Authorization: api.key } }),
  ],
  [
    'POST',
    '^/v2/transcript$',
    () =>
      fetch(`${api.baseUrl}/v2/transcript`, {
        method: 'POST',
        headers: { Authorization: api.key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ audio_url: `${api.baseUrl}/v2/upload/missing` }),
      }),
  ],
  [
    'POST',
    '^/v2/upload$',
    () =>
      fetch(`${api.baseUrl}/v2/upload`, {
        method: 'POST',
        headers: { Authorization: api.key },
        body: fixture('silence.wav'),
      }),
  ],
  [
    'GET',
    '^/v2/transcript/[^/]+/srt$',
    () => fetch(`${api.baseUrl}/v2/transcript/${transcriptId}/srt`, { headers: { Authorization: api.key } }),
  ],
];

describe.each(routes)('injected faults on %s %s', (method, path, call) => {
  it('status: the client gets the status and Retry-After, then normal service', async () => {
    await injectFault({ method, path, kind: 'status', status: 503, retryAfter: '7' });
    const failed = await call();
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('7');
    expect(await failed.json()).toEqual({ error: 'Injected failure (503)' });
    expect((await call()).status).toBe(200);
  });

  it('slow: the answer comes late but complete', async () => {
    await injectFault({ method, path, kind: 'slow', delayMs: 300 });
    const started = Date.now();
    const response = await call();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(response.status).toBe(200);
    expect((await response.text()).length).toBeGreaterThan(0);
  });

  it('reset: the connection drops', async () => {
    await injectFault({ method, path, kind: 'reset' });
    await expect(call()).rejects.toThrow();
    expect((await call()).status).toBe(200);
  });

  it('malformed: a 200 whose body is not JSON', async () => {
    await injectFault({ method, path, kind: 'malformed' });
    const response = await call();
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
  });
});
