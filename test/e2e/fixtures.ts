import { test as base } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebApp } from '../../src/web-host/start';
import { startEmulator, type RunningEmulator } from '../emulator/server';
import type { WebApp } from '../../src/web-host/start';
import { AppShell } from './pages/app-shell';

/** The emulator and the web app run 200 times faster than real time: minutes of processing take a second. */
export const speed = 200;

/**
 * Each test gets its own emulator and its own web host over a fresh data folder, wired
 * together with the emulator's key, and a page object for the shell.
 */
export const test = base.extend<{ emulator: RunningEmulator; host: WebApp; shell: AppShell }>({
  emulator: async ({ browserName: _browser }, use) => {
    const emulator = await startEmulator({ port: 0, speed });
    await use(emulator);
    await emulator.close();
  },
  host: async ({ emulator }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-'));
    const host = await startWebApp({
      dataDir,
      apiKey: emulator.options.key,
      transcriptionUrl: emulator.url,
      gatewayUrl: emulator.url,
      timeScale: speed,
    });
    await use(host);
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
  shell: async ({ page, host }, use) => {
    const shell = new AppShell(page, host);
    await use(shell);
  },
});

export { expect } from '@playwright/test';

export const screenshotDir = join(process.cwd(), 'test-results', 'screenshots');

export const fixtureDir = join(process.cwd(), 'test', 'fixtures');
