import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { createCore } from '../../src/main/core/app-core';

/**
 * Issue #17: `npm run demo` starts the app with `npm start`, which first swaps the native
 * addons in node_modules (better-sqlite3's among them) for their Electron builds. Windows
 * refuses to replace a .node file that a running process has loaded, so at that moment no
 * process of the demo may hold one. The demo runs for real here; only `npm` is a stand-in,
 * found first on PATH, that looks at the demo process from outside when asked to `npm start`.
 */
const demoScript = resolve(import.meta.dirname, 'demo.ts');

/**
 * The stand-in `npm`, run by the demo as `npm start`. It records, at the moment the app would
 * start: its arguments; which native addons (.node files) the demo process and the demo's other
 * descendants have mapped (read from /proc, so Linux only); whether the emulator still answers;
 * and a copy of the data folder as it is then. Then it exits 0, as the app does when closed.
 */
const standInNpmSource = (node: string): string => `#!${node}
const fs = require('node:fs');
const demoPid = process.ppid;

function parentOf(pid) {
  const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
  // "pid (command) state ppid ...": the command may hold spaces and parentheses.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function descendantsOf(root) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), parentOf(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  const found = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [pid, ppid] of parents) {
      if (ppid !== parent || pid === process.pid) continue;
      found.push(pid);
      queue.push(pid);
    }
  }
  return found;
}

function addonsMappedBy(pid) {
  let maps = '';
  try {
    maps = fs.readFileSync('/proc/' + pid + '/maps', 'utf8');
  } catch {
    return [];
  }
  const paths = maps.split('\\n').map((line) => line.split(/\\s+/).slice(5).join(' '));
  return [...new Set(paths.filter((path) => path.endsWith('.node')))];
}

async function main() {
  const addonsHeld = [];
  for (const pid of [demoPid, ...descendantsOf(demoPid)]) {
    let command = '';
    try {
      command = fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').join(' ').trim();
    } catch {}
    for (const addon of addonsMappedBy(pid)) addonsHeld.push({ pid, command, addon });
  }
  const emulatorAnswered = await fetch(process.env.VERBATIM_TRANSCRIPTION_URL).then(
    () => true,
    () => false,
  );
  // No data folder yet is an answer too (nothing seeded), not a failure of the stand-in.
  const dataFolderExisted = fs.existsSync(process.env.VERBATIM_DATA_DIR);
  if (dataFolderExisted)
    fs.cpSync(process.env.VERBATIM_DATA_DIR, process.env.STAND_IN_NPM_DATA_COPY, { recursive: true });
  const record = { args: process.argv.slice(2), demoPid, addonsHeld, emulatorAnswered, dataFolderExisted };
  fs.writeFileSync(process.env.STAND_IN_NPM_RECORD, JSON.stringify(record));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
`;

interface StandInRecord {
  args: string[];
  demoPid: number;
  addonsHeld: { pid: number; command: string; addon: string }[];
  emulatorAnswered: boolean;
  dataFolderExisted: boolean;
}

let demo: ChildProcess | undefined;
let workDir: string | undefined;
afterEach(() => {
  // The demo runs in its own process group: ending the group ends anything it left behind.
  if (demo?.pid !== undefined) {
    try {
      process.kill(-demo.pid, 'SIGKILL');
    } catch {
      // The group has already ended.
    }
  }
  demo = undefined;
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
});

describe('npm run demo (the desktop app on the emulator)', () => {
  // /proc/<pid>/maps is how the stand-in sees what a process has loaded; Linux has it.
  it.runIf(process.platform === 'linux')(
    'has the sample library seeded and holds no native addon when npm start swaps the addons for Electron builds',
    async () => {
      workDir = mkdtempSync(join(tmpdir(), 'verbatim-demo-electron-'));
      const bin = join(workDir, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'npm'), standInNpmSource(process.execPath));
      chmodSync(join(bin, 'npm'), 0o755);
      const dataDir = join(workDir, 'data');
      const dataAtStart = join(workDir, 'data-when-npm-start-ran');
      const recordPath = join(workDir, 'npm-start.json');

      demo = spawn(process.execPath, ['--import', 'tsx', demoScript, '--electron'], {
        env: {
          ...process.env,
          PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
          VERBATIM_DATA_DIR: dataDir,
          STAND_IN_NPM_RECORD: recordPath,
          STAND_IN_NPM_DATA_COPY: dataAtStart,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      demo.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      demo.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      // The demo ends by itself when the app (the stand-in) exits.
      const code = await new Promise<number | null>((resolveExit) =>
        demo!.on('close', (exitCode) => resolveExit(exitCode)),
      );
      expect(code, output).toBe(0);

      const record = JSON.parse(readFileSync(recordPath, 'utf8')) as StandInRecord;
      expect(record.args).toEqual(['start']);
      // The stand-in looked at the demo itself, not at some shell between them.
      expect(record.demoPid).toBe(demo.pid);
      // npm start swaps every addon in the production tree (better-sqlite3, naudiodon,
      // segfault-handler), so the demo and whatever it still runs hold none at all.
      expect(record.addonsHeld).toEqual([]);
      // The app needs the emulator after seeding: it stays up.
      expect(record.emulatorAnswered).toBe(true);

      expect(record.dataFolderExisted).toBe(true);
      const library = createCore({
        dataDir: dataAtStart,
        apiKey: () => undefined,
        transcriptionUrl: () => undefined,
      });
      try {
        const jobs = await library.library.list();
        expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
      } finally {
        await library.close();
      }
    },
    60_000,
  );
});
