#!/usr/bin/env node
// Runs the desktop shell's smoke test (test/electron) against the built app when an Electron
// program is installed. Where none is (installed with ELECTRON_SKIP_BINARY_DOWNLOAD, or
// offline), it says so loudly and does not pretend: the shell was NOT tested on this machine.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronProgram } from './electron-program.mjs';
import { launchProblem, packagedExecutable } from './packaged-launch.mjs';

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
/**
 * Packs the app as a user gets it (electron-builder --dir, the fuses flipped, the afterPack
 * ABI guard) and launches it once. Its fuses shut the doors Playwright drives Electron
 * through, so the app itself reports what its page saw (VERBATIM_LAUNCH_REPORT) and quits.
 */
function launchPackagedApp() {
  const work = mkdtempSync(join(tmpdir(), 'verbatim-packaged-'));
  try {
    const outDir = join(work, 'dist');
    const packed = run([
      'node_modules/electron-builder/cli.js',
      '--dir',
      '--publish',
      'never',
      `-c.directories.output=${outDir}`,
    ]);
    if (packed !== 0) return 'electron-builder could not pack the app';
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const productName = /^productName: (.+)$/m.exec(
      readFileSync(join(root, 'electron-builder.yml'), 'utf8'),
    )?.[1];
    const executable = packagedExecutable(outDir, process.platform, process.arch, {
      name: manifest.name,
      productName: productName ?? manifest.name,
    });
    const reportPath = join(work, 'launch-report.json');
    const launched = spawnSync(executable, process.env.CI ? ['--no-sandbox'] : [], {
      cwd: work,
      stdio: 'inherit',
      timeout: 120_000,
      env: { ...process.env, VERBATIM_LAUNCH_REPORT: reportPath, VERBATIM_DATA_DIR: join(work, 'data') },
    });
    if (launched.error) return `the packaged app could not be started: ${launched.error.message}`;
    const report = existsSync(reportPath) ? JSON.parse(readFileSync(reportPath, 'utf8')) : undefined;
    const problem = launchProblem(report);
    if (!problem)
      console.log(`electron smoke: the packaged app (${executable}) opened its page and answered over IPC.`);
    return problem;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let status;
try {
  status = run(
    ['node_modules/@playwright/test/cli.js', 'test', '--config', 'test/electron/playwright.config.ts'],
    {
      ...process.env,
      VERBATIM_ELECTRON_PROGRAM: program,
    },
  );
  if (status === 0) {
    const problem = launchPackagedApp();
    if (problem) {
      console.error(`electron smoke: ${problem}.`);
      status = 1;
    }
  }
} finally {
  run(['scripts/native-abi.mjs', 'node']);
}
process.exit(status);
