import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from 'node:http';
import WebSocket from 'ws';
import { startWebHost, bridgePath, rawDataToText, socketPath, type WebHost } from './web-host';
import { createDispatcher } from '../main/ipc/dispatcher';
import { createHandlers } from '../main/ipc/create-handlers';
import { wireEvents } from '../main/ipc/events';
import { MemorySecrets } from '../main/core/secrets/secret-store';
import { composeServices } from '../main/compose';
import { defaultSettings } from '../shared/settings';

let host: WebHost;
const logged: string[] = [];
let services: ReturnType<typeof composeServices>;
const root = mkdtempSync(join(tmpdir(), 'verbatim-web-host-'));

beforeAll(async () => {
  const rendererDir = join(root, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(
    join(rendererDir, 'index.html'),
    '<!doctype html><html><head><title>t</title></head><body></body></html>',
  );
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'do not serve');
  writeFileSync(join(root, 'bridge.js'), '/* bridge */');
  writeFileSync(join(root, 'long.wav'), Buffer.alloc(32 * 1024 * 1024));
  services = composeServices({
    dataDir: join(root, 'data'),
    appInfo: { name: 'Verbatim', version: '1', platform: 'linux' },
    secrets: new MemorySecrets(),
  });
  host = await startWebHost({
    dispatch: createDispatcher(createHandlers(services)),
    connectEvents: (emit) => wireEvents(services, emit),
    rendererDir,
    bridgeFile: join(root, 'bridge.js'),
    importDir: join(root, 'imports'),
    recordingOf: (id) =>
      Promise.resolve(
        id === 'known'
          ? { kind: 'file', path: join(root, 'secret.txt') }
          : id === 'long'
            ? { kind: 'file', path: join(root, 'long.wav') }
            : undefined,
      ),
    logError: (message, error) => logged.push(`${message}: ${String(error)}`),
  });
});

afterAll(async () => {
  await host.close();
  await services.close();
});

function connect(token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${host.url.replace('http', 'ws')}${socketPath}?token=${token}`);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function call(ws: WebSocket, id: number, method: string, input?: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse(rawDataToText(data)) as { id?: number; result?: unknown };
      if (message.id === id) {
        ws.off('message', onMessage);
        resolve(message.result);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, input }));
  });
}

describe('the web host', () => {
  it('listens on loopback only and prints a URL carrying a random token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.token).toMatch(/^[0-9a-f]{48}$/);
    expect(host.openUrl).toBe(`${host.url}/?token=${host.token}`);
  });

  it('serves the renderer with the bridge injected before it, under a strict CSP', async () => {
    const response = await fetch(`${host.url}/`);
    const html = await response.text();
    expect(html).toContain(`<script src="${bridgePath}"></script>`);
    expect(html.indexOf(bridgePath)).toBeLessThan(html.indexOf('<title>'));
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`${host.url.replace('http', 'ws')}${socketPath}`);
    expect(await (await fetch(`${host.url}${bridgePath}`)).text()).toBe('/* bridge */');
    expect((await fetch(`${host.url}/assets/app.js`)).headers.get('content-type')).toContain('javascript');
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const response = await fetch(`${host.url}${path}`);
      expect(await response.text()).not.toContain('do not serve');
    }
  });

  it('refuses the API socket without the token or with a wrong one', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401');
    await expect(connect('0'.repeat(48))).rejects.toThrow('HTTP 401');
  });

  it('carries the contract: calls answer with envelopes and events reach every page', async () => {
    const first = await connect(host.token);
    const second = await connect(host.token);
    const event = new Promise<unknown>((resolve) =>
      second.once('message', (data) => resolve(JSON.parse(rawDataToText(data)))),
    );
    expect(await call(first, 1, 'settings.set', { theme: 'light' })).toEqual({
      ok: true,
      value: { ...defaultSettings, theme: 'light' },
    });
    expect(await event).toEqual({
      event: 'settings.changed',
      payload: { ...defaultSettings, theme: 'light' },
    });
    expect(await call(first, 2, 'settings.set', { theme: 'neon' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await call(first, 3, 'nope.nothing')).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    first.close();
    second.close();
  });

  it('sends every answer and event as ASCII only, which parses back to the same value', async () => {
    const first = await connect(host.token);
    const second = await connect(host.token);
    // The raw text of the first frame a socket receives that starts as `prefix` does.
    const frame = (ws: WebSocket, prefix: string): Promise<string> =>
      new Promise((resolve) => {
        const onMessage = (data: WebSocket.RawData): void => {
          const text = rawDataToText(data);
          if (!text.startsWith(prefix)) return;
          ws.off('message', onMessage);
          resolve(text);
        };
        ws.on('message', onMessage);
      });
    const answerFrame = frame(first, '{"id":1,');
    const eventFrame = frame(second, '{"event":');
    const presets = [{ name: 'Entretien “Léa” — 東京 🎙️', options: { speaker_labels: true } }];
    first.send(JSON.stringify({ id: 1, method: 'settings.set', input: { presets } }));
    for (const frame of [await answerFrame, await eventFrame]) {
      expect(frame).not.toMatch(/[\u0080-\uffff]/);
      expect(frame).toContain('\\u201c');
      expect(JSON.stringify(JSON.parse(frame))).toContain(presets[0]?.name);
    }
    expect(JSON.parse(await answerFrame)).toMatchObject({ id: 1, result: { ok: true, value: { presets } } });
    expect(JSON.parse(await eventFrame)).toMatchObject({ event: 'settings.changed', payload: { presets } });
    first.close();
    second.close();
  });

  it('stores a dropped file under a safe name and answers with its path, with the token only', async () => {
    expect(
      (await fetch(`${host.url}/__verbatim/files?name=x.wav`, { method: 'POST', body: 'abc' })).status,
    ).toBe(401);
    const response = await fetch(
      `${host.url}/__verbatim/files?token=${host.token}&name=${encodeURIComponent('../../evil/inter view.wav')}`,
      {
        method: 'POST',
        body: 'RIFF bytes',
      },
    );
    const { path } = (await response.json()) as { path: string };
    expect(path.startsWith(join(root, 'imports'))).toBe(true);
    expect(path.endsWith('inter view.wav')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('RIFF bytes');
  });

  it('plays a transcript recording with ranges, with the token only', async () => {
    expect((await fetch(`${host.url}/__verbatim/media/known`)).status).toBe(401);
    const ranged = await fetch(`${host.url}/__verbatim/media/known?token=${host.token}`, {
      headers: { Range: 'bytes=0-1' },
    });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('do');
    expect((await fetch(`${host.url}/__verbatim/media/unknown?token=${host.token}`)).status).toBe(404);
  });

  it('takes a player dropping the rest of a recording as its choice, not as a fault', async () => {
    logged.length = 0;
    await new Promise<void>((resolve, reject) => {
      const request = get(`${host.url}/__verbatim/media/long?token=${host.token}`, (response) => {
        expect(response.statusCode).toBe(200);
        // One chunk, then the player seeks elsewhere and drops this response.
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(logged).toEqual([]);
    // The host still serves the next request.
    const ranged = await fetch(`${host.url}/__verbatim/media/long?token=${host.token}`, {
      headers: { Range: 'bytes=0-3' },
    });
    expect(ranged.status).toBe(206);
  });

  it('closes a socket that sends something other than a request', async () => {
    const ws = await connect(host.token);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('not json');
    expect(await closed).toBe(1003);
  });
});
