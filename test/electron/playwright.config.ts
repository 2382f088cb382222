import { defineConfig } from '@playwright/test';

/** The desktop shell itself, launched from the build by scripts/run-electron-smoke.mjs. */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.electron.ts',
  outputDir: '../../test-results/electron',
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
});
