import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebApp } from './start';
import { filesPath, rawDataToText, refusalNoteEveryMs, socketPath, startWebHost } from './web-host';

/**
 * Any web page can make the browser ask the host for a malformed address
 * (`<img src=http://127.0.0.1:PORT/%E0%A4%A?i>`), thousands of times. Each is a 400, and the log
 * gets one short line a minute at most, never an error with a stack per request.
 */
const malformed = '/%E0%A4%A?i';

/** Writes a line through the page's log and waits until it is in the file: what came before is there too. */
async function loggedThroughPage(url: string, token: string, logFile: string, line: string): Promise<void> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}${socketPath}?token=${token}`);
  await new Promise((resolveOpen, reject) => ws.once('open', resolveOpen).once('error', reject));
  const answered = new Promise((resolveAnswer) =>
    ws.once('message', (data) => resolveAnswer(rawDataToText(data))),
  );
  ws.send(JSON.stringify({ id: 1, method: 'log.write', input: { level: 'info', message: line } }));
  await answered;
  ws.close();
  for (;;) {
    if (readFileSync(logFile, 'utf8').includes(line)) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 20));
  }
}

describe('malformed requests to the web host', () => {
  it('300 of them are 400s and add one short line to the log', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-web-malformed-'));
    const app = await startWebApp({ dataDir });
    try {
      await loggedThroughPage(app.url, app.token, app.logFile, 'before the flood');
      const before = statSync(app.logFile).size;
      for (let request = 0; request < 300; request++) {
        const response = await fetch(`${app.url}${malformed}`);
        expect(response.status).toBe(400);
        await response.text();
      }
      await loggedThroughPage(app.url, app.token, app.logFile, 'after the flood');
      const added = readFileSync(app.logFile, 'utf8').slice(before);
      expect(added).not.toMatch(/ERROR|at .*\.ts:\d+/);
      expect(added.match(/refused a malformed request/g)).toHaveLength(1);
      expect(statSync(app.logFile).size - before).toBeLessThan(600);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('a file name that names a folder ("..") is a 400, not a 500', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-web-malformed-name-'));
    const app = await startWebApp({ dataDir });
    try {
      for (const name of ['..', '.', '...']) {
        const response = await fetch(`${app.url}${filesPath}?token=${app.token}&name=${name}`, {
          method: 'POST',
          body: 'RIFF',
        });
        expect(response.status, name).toBe(400);
        expect(await response.text()).toBe('Bad request: the file name is not a file’s name');
      }
    } finally {
      await app.close();
    }
  }, 60_000);

  it('after a quiet minute the next note says how many were left out', async () => {
    const root = mkdtempSync(join(tmpdir(), 'verbatim-web-malformed-clock-'));
    mkdirSync(join(root, 'renderer'));
    writeFileSync(join(root, 'bridge.js'), '');
    let now = 0;
    const notes: string[] = [];
    const host = await startWebHost({
      dispatch: () => Promise.resolve({ ok: true as const, value: {} }),
      connectEvents: () => undefined,
      rendererDir: join(root, 'renderer'),
      bridgeFile: join(root, 'bridge.js'),
      importDir: join(root, 'imports'),
      recordingOf: () => Promise.resolve(undefined),
      logError: (message) => notes.push(`ERROR ${message}`),
      logRefusal: (message) => notes.push(message),
      now: () => now,
    });
    try {
      const ask = async (): Promise<number> => (await fetch(`${host.url}${malformed}`)).status;
      for (let request = 0; request < 5; request++) expect(await ask()).toBe(400);
      now += refusalNoteEveryMs;
      expect(await ask()).toBe(400);
      expect(notes).toEqual([
        'refused a malformed request (400): the address has a broken %-escape',
        'refused a malformed request (400): the address has a broken %-escape (and 4 more like it since the last note)',
      ]);
    } finally {
      await host.close();
    }
  });
});
