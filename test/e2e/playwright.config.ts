import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  outputDir: '../../test-results/playwright',
  // Screenshot baselines (screenshots.e2e.ts) are committed beside the tests, one per name: the
  // suite runs in one browser on one platform, so a suffix per platform would only hide a missing one.
  snapshotPathTemplate: '{testDir}/screenshots/{arg}{ext}',
  // A run writes a missing baseline (and fails); CI never does, so a missing one is only a failure.
  updateSnapshots: process.env.CI ? 'none' : 'missing',
  expect: {
    toHaveScreenshot: { maxDiffPixelRatio: 0.01, animations: 'disabled', caret: 'hide', scale: 'css' },
  },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Whole days of a journalist (transcribe, play, correct, axe on every view) run near 30 s on a
  // busy two-core machine; a limit is not an assertion, so it leaves room.
  timeout: 60_000,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.VERBATIM_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
