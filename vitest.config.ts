import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { resolve } from 'node:path';

export default defineConfig({
  plugins: [svelte({ configFile: resolve('svelte.config.js') })],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/e2e/**'],
    environment: 'node',
    // A bound, not an assertion: many tests run the real CLI as several child processes, each
    // starting Node and tsx (1–2 s of CPU), and on a busy two-core machine one test of five such
    // runs took over 20 s with nothing wrong. A test that hangs still fails, after two minutes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Dates are shown in the machine's time zone; tests pin it so an expected date is one string.
    env: { TZ: 'UTC' },
  },
});
