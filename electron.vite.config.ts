import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Plugin } from 'vite';
import { contentSecurityPolicy } from './src/main/core/app-policy/content-security-policy';

/**
 * The built page carries its Content-Security-Policy in a <meta> tag as well as the header
 * the main process adds: Electron's documentation warns that a header set through
 * webRequest may not reach a page loaded from file://, which is how the packaged app loads.
 * Development (a dev server over http, where the header does apply) is left without it.
 */
function policyInPage(): Plugin {
  return {
    name: 'verbatim-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy({ metaTag: true }) },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          // Started as a worker thread beside index.js (library-upgrade.ts).
          'library-upgrade-worker': resolve('src/main/core/library/library-upgrade-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require npm packages or be an ES module: one bundled
      // CommonJS file with everything but electron inlined.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [svelte({ configFile: resolve('svelte.config.js') }), policyInPage()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
