// Where the Electron program is, found the way the electron package finds it (path.txt,
// ELECTRON_OVERRIDE_DIST_PATH) but without its fallback of downloading one: on a machine
// installed with ELECTRON_SKIP_BINARY_DOWNLOAD, or offline, the answer is simply "none".
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {string} electronDir the electron package's folder (node_modules/electron)
 * @param {Record<string, string | undefined>} env the environment to read overrides from
 * @returns {string | undefined} the program's path when it exists on disk
 */
export function electronProgram(electronDir, env = process.env) {
  const pathFile = join(electronDir, 'path.txt');
  const named = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const program = env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(env.ELECTRON_OVERRIDE_DIST_PATH, named || 'electron')
    : named
      ? join(electronDir, 'dist', named)
      : undefined;
  return program && existsSync(program) ? program : undefined;
}
