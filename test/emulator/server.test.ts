import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from './server';

/** The emulator's own core: admin faults, the request log, reset, start and stop. */
let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function admin(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${emulator!.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const get = (path: string) =>
  fetch(`${emulator!.url}${path}`, { headers: { Authorization: 'emulator-key' } });

describe('the emulator core', () => {
  it('fails exactly the next N matching requests, then behaves', async () => {
    emulator = await startEmulator({ port: 0 });
    await admin('POST', '/__admin/faults', {
      method: 'GET',
      path: '^/v2/transcript$',
      kind: 'status',
      status: 429,
      retryAfter: '3',
      count: 2,
    });
    const first = await get('/v2/transcript');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    expect(((await first.json()) as { error: string }).error).toContain('429');
    // A request that does not match is not affected and does not use up the fault.
    expect((await get('/v2/transcript/unknown')).status).toBe(404);
    expect((await get('/v2/transcript')).status).toBe(429);
    expect((await get('/v2/transcript')).status).toBe(200);
  });

  it.each([500, 503, 504])('injects a %i', async (status) => {
    emulator = await startEmulator({ port: 0 });
    await admin('POST', '/__admin/faults', { kind: 'status', status });
    expect((await get('/v2/transcript')).status).toBe(status);
  });

  it('resets connections, answers slowly, and sends malformed JSON on demand', async () => {
    emulator = await startEmulator({ port: 0 });
    await admin('POST', '/__admin/faults', [
      { path: '^/v2/transcript$', kind: 'reset' },
      { path: '^/v2/transcript$', kind: 'malformed' },
      { path: '^/v2/transcript$', kind: 'slow', delayMs: 300 },
    ]);
    await expect(get('/v2/transcript')).rejects.toThrow();
    const malformed = await get('/v2/transcript');
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow();
    const started = Date.now();
    expect((await get('/v2/transcript')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('refuses a malformed fault and clears faults on request', async () => {
    emulator = await startEmulator({ port: 0 });
    expect((await admin('POST', '/__admin/faults', { kind: 'explode' })).status).toBe(400);
    await admin('POST', '/__admin/faults', { kind: 'status', status: 500, count: 5 });
    await admin('DELETE', '/__admin/faults');
    expect((await get('/v2/transcript')).status).toBe(200);
  });

  it('logs requests without their secrets, and resets all state', async () => {
    emulator = await startEmulator({ port: 0 });
    await get('/v2/transcript?limit=3');
    const { json } = await admin('GET', '/__admin/requests');
    expect(json.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/v2/transcript',
        query: '?limit=3',
        status: 200,
        authorization: 'present',
      }),
    ]);
    expect(JSON.stringify(json)).not.toContain('emulator-key');
    await admin('POST', '/__admin/voice/next-utterance', { text: 'hello' });
    await admin('POST', '/__admin/faults', { kind: 'status', status: 500, count: 3 });
    expect((await admin('POST', '/__admin/reset')).json).toEqual({ reset: true });
    expect((await admin('GET', '/__admin/requests')).json.requests).toEqual([]);
    expect((await get('/v2/transcript')).status).toBe(200);
  });

  it('answers an unknown path with 404 and a wrong method with 405', async () => {
    emulator = await startEmulator({ port: 0 });
    expect((await get('/v9/nothing')).status).toBe(404);
    expect(
      (await fetch(`${emulator.url}/v2/upload`, { headers: { Authorization: 'emulator-key' } })).status,
    ).toBe(405);
  });

  it('removes the data folder it made for itself when it stops', async () => {
    const running = await startEmulator({ port: 0 });
    expect(existsSync(running.options.dataDir)).toBe(true);
    await running.close();
    expect(existsSync(running.options.dataDir)).toBe(false);
  });
});

describe('npm run emulator', () => {
  it('prints one line when ready, serves the EU port, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(import.meta.dirname, 'cli.ts'),
        '--port',
        '0',
        '--eu-port',
        '0',
        '--speed',
        '5',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const ready = new Promise<string>((resolveReady) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /^emulator listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output);
        if (match?.[1] && output.includes('EU region')) resolveReady(match[1]);
      });
    });
    const url = await ready;
    expect((await fetch(`${url}/v2/transcript`, { headers: { Authorization: 'emulator-key' } })).status).toBe(
      200,
    );
    const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a bad option with exit code 2', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(import.meta.dirname, 'cli.ts'), '--speed', 'fast'],
      { stdio: 'ignore' },
    );
    expect(await new Promise((resolveExit) => child.on('exit', resolveExit))).toBe(2);
  });
});
