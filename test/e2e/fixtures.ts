import { test as base, expect } from '@playwright/test';
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
 * Lets through a console message a test provokes on purpose. Call it in the test's body, once
 * per expected message, with a pattern that matches only that message and a comment saying why:
 *
 *   // The missing file is the subject: the browser logs its 404 itself.
 *   allowConsole(/Failed to load resource: .* 404/);
 */
export type AllowConsole = (message: RegExp) => void;

/**
 * Each test gets its own emulator and its own web host over a fresh data folder, wired
 * together with the emulator's key, and a page object for the shell.
 *
 * Every test also fails when a page of its browser context logs a console warning or error or
 * throws (a Svelte warning, a failed request, an uncaught exception): they are listed at the
 * end of the test, all but those it allowed with `allowConsole`.
 */
export const test = base.extend<{
  emulator: RunningEmulator;
  host: WebApp;
  shell: AppShell;
  allowConsole: AllowConsole;
}>({
  allowConsole: [
    async ({ context }, use) => {
      const problems: string[] = [];
      context.on('console', (message) => {
        if (message.type() !== 'warning' && message.type() !== 'error') return;
        const { url, lineNumber } = message.location();
        problems.push(`console ${message.type()}: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
      });
      context.on('weberror', (error) => {
        const thrown = error.error();
        problems.push(`page error: ${thrown.stack ?? thrown.message}`);
      });
      const allowed: RegExp[] = [];
      await use((message) => void allowed.push(message));
      expect(
        problems.filter((problem) => !allowed.some((message) => message.test(problem))),
        'The page logged warnings or errors (a test allows one it provokes on purpose with allowConsole).',
      ).toEqual([]);
    },
    { auto: true },
  ],
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
