import { chromium, type Browser, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The Chromium every benchmark in a browser runs in, launched the same way: the system's
 * Chromium (Playwright's own cannot be downloaded offline), over the built renderer, with
 * nothing running beside the page that could take a core from the measurement.
 */
const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find(
  (path) => existsSync(path),
);

/** Fails at once, saying what is missing, when `name`'s benchmark cannot run here. */
export function requireBenchBrowser(name: string): string {
  if (!browserPath) throw new Error(`The ${name} benchmark needs Chromium (apt-get install chromium).`);
  if (!existsSync(resolve('out/renderer/index.html'))) throw new Error('Build first: npm run build');
  return browserPath;
}

/** Chromium for `name`'s benchmark; `extraArgs` for what one needs more (audio, autoplay). */
export function launchBenchBrowser(name: string, extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: requireBenchBrowser(name),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** A page at the size the benchmarks measure, that runs the functions tsx compiles for it. */
export async function newBenchPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // tsx names functions with an `__name` helper that the page does not have.
  await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  return page;
}
