#!/usr/bin/env node
// Runs the desktop shell's smoke test (test/electron) against the built app when an Electron
// program is installed. Where none is (installed with ELECTRON_SKIP_BINARY_DOWNLOAD, or
// offline), it says so loudly and does not pretend: the shell was NOT tested on this machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronProgram } from './electron-program.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
// The electron package to look in; this script's own test points it at a stand-in.
const electronDir =
  process.env.VERBATIM_ELECTRON_PACKAGE_DIR ?? dirname(require.resolve('electron/package.json'));
const program = electronProgram(electronDir);

if (!program) {
  const line = '!'.repeat(78);
  console.error(
    [
      line,
      'ELECTRON SMOKE TEST NOT RUN: no Electron program is installed here',
      '(npm install ran with ELECTRON_SKIP_BINARY_DOWNLOAD, or could not download it).',
      'The desktop shell (preload, IPC, verbatim-media:, CSP, navigation) was not tested.',
      'To run it: node node_modules/electron/install.js, then npm test.',
      line,
    ].join('\n'),
  );
  process.exit(0);
}
if (!existsSync(join(root, 'out', 'main', 'index.js'))) {
  console.error('electron smoke: the app is not built; run "npm run build" first.');
  process.exit(1);
}

const run = (args, env = process.env) =>
  spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

// The app loads its native modules on Electron's ABI; the unit tests need Node's back after.
if (run(['scripts/native-abi.mjs', 'electron']) !== 0) process.exit(1);
let status;
try {
  status = run(
    ['node_modules/@playwright/test/cli.js', 'test', '--config', 'test/electron/playwright.config.ts'],
    {
      ...process.env,
      VERBATIM_ELECTRON_PROGRAM: program,
    },
  );
} finally {
  run(['scripts/native-abi.mjs', 'node']);
}
process.exit(status);
