// Where the end-to-end tests find a browser: VERBATIM_CHROMIUM, else an installed Chromium or
// Chrome in its usual place. Playwright's own browser download cannot work offline.
import { existsSync } from 'node:fs';

/** @param {Record<string, string | undefined>} env */
export function chromiumCandidates(env) {
  return [
    env.VERBATIM_CHROMIUM,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  ].filter((path) => typeof path === 'string' && path !== '');
}

/**
 * @param {Record<string, string | undefined>} env
 * @param {(path: string) => boolean} [exists]
 */
export function findChromium(env, exists = existsSync) {
  return chromiumCandidates(env).find((path) => exists(path));
}
