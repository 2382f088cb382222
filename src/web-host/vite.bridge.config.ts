import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** Builds the web host's bridge as one classic script, loaded before the renderer. */
export default defineConfig({
  build: {
    outDir: resolve('out/web-bridge'),
    emptyOutDir: true,
    minify: false,
    lib: {
      entry: resolve('src/web-host/bridge.ts'),
      formats: ['iife'],
      name: 'verbatimBridge',
      fileName: () => 'bridge.js',
    },
  },
});
