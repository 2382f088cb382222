import { describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { rawDataToText, socketPath, startWebHost } from './web-host';
import { startWebApp } from './start';
import { toDisposable } from '../main/base/lifecycle';
import { success } from '../shared/ipc/envelope';

describe("the web host's lifetime", () => {
  it('disposes the event wiring it was given, once, when it closes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'verbatim-web-lifetime-'));
    const unwired = vi.fn();
    const host = await startWebHost({
      dispatch: () => Promise.resolve(success({})),
      connectEvents: () => toDisposable(unwired),
      rendererDir: root,
      bridgeFile: join(root, 'bridge.js'),
      importDir: join(root, 'imports'),
      recordingOf: () => Promise.resolve(undefined),
    });
    expect(unwired).not.toHaveBeenCalled();
    await host.close();
    expect(unwired).toHaveBeenCalledTimes(1);
  });

  it('closes at once while a page still holds a request half sent', async () => {
    const root = mkdtempSync(join(tmpdir(), 'verbatim-web-lifetime-'));
    const host = await startWebHost({
      dispatch: () => Promise.resolve(success({})),
      connectEvents: () => undefined,
      rendererDir: root,
      bridgeFile: join(root, 'bridge.js'),
      importDir: join(root, 'imports'),
      recordingOf: () => Promise.resolve(undefined),
    });
    const socket = connect(Number(new URL(host.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /audio HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const ended = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = host.close().then(() => 'closed');
    const waited = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000));
    expect(await Promise.race([closing, waited])).toBe('closed');
    await ended;
  });
});

describe("the web app's log", () => {
  it('writes to <data>/logs/verbatim.log, the page’s lines included, without its key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-web-log-'));
    const app = await startWebApp({ dataDir, apiKey: 'web-host-key-123' });
    try {
      expect(app.logFile).toBe(join(dataDir, 'logs', 'verbatim.log'));
      expect(readFileSync(app.logFile, 'utf8')).toContain('[main] the Verbatim web host started');
      const ws = new WebSocket(`${app.url.replace('http', 'ws')}${socketPath}?token=${app.token}`);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const answer = new Promise<string>((resolve) =>
        ws.once('message', (data) => resolve(rawDataToText(data))),
      );
      ws.send(
        JSON.stringify({
          id: 1,
          method: 'log.write',
          input: { level: 'error', message: 'the reader failed with web-host-key-123' },
        }),
      );
      expect(JSON.parse(await answer)).toEqual({ id: 1, result: { ok: true, value: {} } });
      ws.close();
      const logged = readFileSync(app.logFile, 'utf8');
      expect(logged).toContain('ERROR [renderer] the reader failed with [redacted]');
      expect(logged).not.toContain('web-host-key-123');
    } finally {
      await app.close();
    }
    expect(existsSync(join(dataDir, 'logs', 'verbatim.log'))).toBe(true);
  });
});
