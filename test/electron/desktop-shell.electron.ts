import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator/server';
import type { BridgeApi } from '../../src/shared/ipc/api';

/**
 * The built desktop app, launched for real: the sandboxed preload's bridge, one IPC round
 * trip through the main process, a recording streamed through verbatim-media: with a range,
 * the Content-Security-Policy in force, and navigation away from the app refused.
 * scripts/run-electron-smoke.mjs runs it when an Electron program is installed.
 */
type WithApi = { api: BridgeApi };

const root = resolve(import.meta.dirname, '../..');
const recording = join(root, 'test', 'fixtures', 'press-statement.wav');
let emulator: RunningEmulator;
let app: ElectronApplication;
let page: Page;
let dataDir: string;

test.beforeAll(async () => {
  const executablePath = process.env.VERBATIM_ELECTRON_PROGRAM;
  if (!executablePath)
    throw new Error('Run this through scripts/run-electron-smoke.mjs, which finds Electron.');
  emulator = await startEmulator({ port: 0, speed: 200 });
  dataDir = mkdtempSync(join(tmpdir(), 'verbatim-electron-smoke-'));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  delete env.ELECTRON_RENDERER_URL;
  delete env.ELECTRON_RUN_AS_NODE;
  app = await electron.launch({
    executablePath,
    args: [join(root, 'out', 'main', 'index.js'), ...(process.env.CI ? ['--no-sandbox'] : [])],
    env: {
      ...env,
      VERBATIM_DATA_DIR: dataDir,
      VERBATIM_API_KEY: emulator.options.key,
      VERBATIM_TRANSCRIPTION_URL: emulator.url,
    },
  });
  page = await app.firstWindow();
  await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
});

test.afterAll(async () => {
  await app?.close();
  await emulator?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('the renderer has the bridge and no Node', async () => {
  expect(await page.evaluate(() => typeof (window as unknown as WithApi).api)).toBe('object');
  expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
  expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
});

test('a call goes through the preload to the main process and back, and its recording streams with a range', async () => {
  const id = await page.evaluate(async (path) => {
    const { api } = window as unknown as WithApi;
    const created = await api.transcripts.create({ source: { kind: 'file', path }, options: {} });
    if (!created.ok) throw new Error(created.error.message);
    for (let attempt = 0; attempt < 300; attempt++) {
      const got = await api.transcripts.get({ id: created.value.id });
      if (got.ok && got.value.summary.status === 'completed') return created.value.id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('The transcript did not complete.');
  }, recording);

  const media = await page.evaluate(async (id) => {
    const response = await fetch(`verbatim-media://recording/${encodeURIComponent(id)}`, {
      headers: { Range: 'bytes=0-3' },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      status: response.status,
      range: response.headers.get('content-range'),
      text: String.fromCharCode(...bytes),
    };
  }, id);
  expect(media.status).toBe(206);
  expect(media.range).toMatch(/^bytes 0-3\/\d+$/);
  expect(media.text).toBe('RIFF');

  const unknown = await page.evaluate(
    async () => (await fetch('verbatim-media://recording/no-such-id')).status,
  );
  expect(unknown).toBe(404);
});

test('the Content-Security-Policy is in force: no eval, no script from elsewhere', async () => {
  const evalRefused = await page.evaluate(() => {
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the call under test
      const compiled = new Function('return 1') as () => number;
      return compiled() !== 1;
    } catch (error) {
      return error instanceof EvalError;
    }
  });
  expect(evalRefused).toBe(true);
  const violation = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), {
          once: true,
        });
        const script = document.createElement('script');
        script.src = 'https://example.com/outside.js';
        document.head.append(script);
      }),
  );
  expect(violation).toBe('script-src-elem');
});

test('the window never navigates away from the app, nor opens another', async () => {
  const before = page.url();
  await page.evaluate(() => {
    window.location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toBe(before);
  await expect(page.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();
  expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true);
  expect(app.windows()).toHaveLength(1);
});
