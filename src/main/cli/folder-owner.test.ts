import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { runCliProcess } from './cli-process.test-kit';

const speed = 200;
const fixtures = resolve(import.meta.dirname, '../../../test/fixtures');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());

function cliProcess(args: string[], dataDir: string) {
  return runCliProcess(args, {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
  });
}

/** Waits until the service's request log holds a request that `matches`. */
async function serviceHasSeen(
  matches: (request: { method: string; path: string }) => boolean,
): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const log = (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
      requests: { method: string; path: string }[];
    };
    if (log.requests.some(matches)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The first process never sent anything to the service.');
}

describe('two processes on one data folder', () => {
  it('create each unfinished recording once on the service: one sends, the other waits and says so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-owner-'));
    const library = new Library(openDatabase(join(dataDir, 'library.sqlite')), () => Date.now());
    const files = ['press-statement.wav', 'spanish-clip.wav', 'press-statement.wav', 'stereo-call.wav'];
    for (const [index, file] of files.entries())
      await library.createJob({
        id: `job-${index}`,
        title: `Recording ${index}`,
        sourceKind: 'file',
        source: join(fixtures, file),
        audioPath: join(fixtures, file),
        region: 'us',
        options: {},
        status: 'uploading',
      });
    await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });

    // The service holds each job's first status checks for ten seconds, and the second process
    // starts only once the first is sending (the service has seen its first upload): so the
    // first still owns the folder with jobs in flight when the second looks, however slowly a
    // loaded machine starts either of them. (Started together, the first once finished all
    // four before the second had even begun, and neither waited.)
    await fetch(`${emulator.url}/__admin/faults`, {
      method: 'POST',
      body: JSON.stringify({
        method: 'GET',
        path: '^/v2/transcript/[^/]+$',
        kind: 'slow',
        delayMs: 10_000,
        count: 4,
      }),
    });
    const firstRun = cliProcess(['resume', '--wait', '--json'], dataDir);
    await serviceHasSeen((request) => request.method === 'POST' && request.path === '/v2/upload');
    const [first, second] = await Promise.all([
      firstRun,
      cliProcess(['resume', '--wait', '--json'], dataDir),
    ]);
    await fetch(`${emulator.url}/__admin/faults`, { method: 'DELETE' });
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    // Exactly one of them waited for the other, and said so.
    const waited = [first, second].filter((run) => run.stderr.includes('a Verbatim command line (process'));
    expect(waited).toHaveLength(1);
    expect(waited[0]!.stderr).toMatch(/is sending this folder's jobs; waiting for it to finish them/);

    const log = (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
      requests: { method: string; path: string }[];
    };
    const creates = log.requests.filter(
      (request) => request.method === 'POST' && request.path === '/v2/transcript',
    );
    expect(creates).toHaveLength(files.length);
    const jobs = await library.list();
    expect(jobs.map((job) => job.status)).toEqual(files.map(() => 'completed'));
    for (const run of [first, second])
      expect((JSON.parse(run.stdout) as { status: string }[]).map((job) => job.status)).toEqual(
        files.map(() => 'completed'),
      );
  }, 60_000);

  it('a process that ends by SIGKILL leaves no claim behind: the next one sends at once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-owner-kill-'));
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import { claimDataFolder } from ${JSON.stringify(resolve(import.meta.dirname, '../core/library/folder-owner.ts'))}; const claim = claimDataFolder(${JSON.stringify(dataDir)}, 'a holder'); console.log(claim.owned); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const owned = await new Promise<string>((resolveOwned) =>
      holder.stdout.once('data', (data: Buffer) => resolveOwned(data.toString().trim())),
    );
    expect(owned).toBe('true');
    const { claimDataFolder } = await import('../core/library/folder-owner');
    const meanwhile = claimDataFolder(dataDir, 'this test');
    expect(meanwhile.owned).toBe(false);
    expect(meanwhile.ownerDescription()).toMatch(/^a holder \(process \d+\)$/);
    holder.kill('SIGKILL');
    await new Promise((resolveExit) => holder.on('exit', resolveExit));
    expect(meanwhile.tryClaim()).toBe(true);
    meanwhile.release();
  });
});

describe('a damaged owner.lock (issue #32)', () => {
  it('of random bytes is mended in place, and every command works', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-owner-damaged-'));
    writeFileSync(join(dataDir, 'owner.lock'), randomBytes(8192));
    const first = await cliProcess(['jobs'], dataDir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toMatch(/\n\s+at /);
    const again = await cliProcess(['jobs', '--json'], dataDir);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([]);
    const lock = new Database(join(dataDir, 'owner.lock'), { readonly: true });
    expect(lock.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual([
      'owner',
    ]);
    lock.close();
  });

  it('that is a folder is named, with what to do, and left alone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-owner-folder-'));
    mkdirSync(join(dataDir, 'owner.lock'));
    writeFileSync(join(dataDir, 'owner.lock', 'notes.txt'), "not Verbatim's");
    const run = await cliProcess(['jobs'], dataDir);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `verbatim: Verbatim keeps a small lock file at ${join(dataDir, 'owner.lock')}, but a folder has that name. Move the folder elsewhere (Verbatim did not make it), then try again.\n`,
    );
  });
});
