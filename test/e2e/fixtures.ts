import { test as base } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebApp } from '../harness/start';
import type { WebHost } from '../harness/web-host';
import { AppShell } from './pages/app-shell';

/** Each test gets its own web host over a fresh data folder, and a page object for the shell. */
export const test = base.extend<{ host: WebHost; shell: AppShell }>({
  host: async ({ browserName: _browser }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-'));
    const host = await startWebApp({ dataDir });
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
