#!/usr/bin/env node
// Runs the Playwright suite in a system Chromium. Playwright's own browser download cannot
// work offline, so we look for an installed one. Under CI a missing browser is a failure.
import { spawnSync } from 'node:child_process';
import { findChromium } from './chromium.mjs';

const browser = findChromium(process.env);
if (!browser) {
  const message =
    'No Chromium or Chrome found for the end-to-end tests. Install one (Debian: apt-get install chromium) or set VERBATIM_CHROMIUM.';
  if (process.env.CI) {
    console.error(`e2e: ${message}`);
    process.exit(1);
  }
  console.warn(`e2e: NOT RUN. ${message}`);
  process.exit(0);
}

const result = spawnSync(
  process.execPath,
  [
    'node_modules/@playwright/test/cli.js',
    'test',
    '--config',
    'test/e2e/playwright.config.ts',
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', env: { ...process.env, VERBATIM_CHROMIUM: browser } },
);
process.exit(result.status ?? 1);
