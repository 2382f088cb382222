import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cliEntry, runCliProcess, startCliProcess } from './cli-process.test-kit';
import { writePreviousFormatLibrary } from '../core/library/old-library.test-kit';

/** Every file in a backups folder, with its size. */
function filesIn(folder: string): { name: string; size: number }[] {
  return readdirSync(folder)
    .sort()
    .map((name) => ({ name, size: statSync(join(folder, name)).size }));
}

/** What SQLite's quick_check says of a backup, or why it did not open. */
function checkOf(path: string): string {
  try {
    const copy = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return String(copy.pragma('quick_check', { simple: true }));
    } finally {
      copy.close();
    }
  } catch (error) {
    return (error as Error).message;
  }
}

function expectOnlyGoodBackups(folder: string): void {
  for (const { name, size } of filesIn(folder)) {
    expect(name).toMatch(/^library-\d{8}T\d{6}-[a-z0-9-]+\.sqlite$/);
    expect(size, name).toBeGreaterThan(0);
    expect(checkOf(join(folder, name)), name).toBe('ok');
  }
}

describe('automatic backups on a disk that is nearly full', () => {
  it('leaves no empty backup, says the disk is full, and once there is room keeps the real backups', async () => {
    const work = mkdtempSync(join(tmpdir(), 'verbatim-backup-full-'));
    const seed = join(work, 'seed');
    // Three real daily backups, made while the library was small.
    const small = writePreviousFormatLibrary(join(work, 'small'));
    const backups = join(seed, 'backups');
    mkdirSync(backups, { recursive: true });
    const dailies = ['20250101', '20250102', '20250103'].map((date) => `library-${date}T000000-daily.sqlite`);
    for (const name of dailies) copyFileSync(small, join(backups, name));
    // What an older Verbatim left on a full disk: empty copies and one cut short, journal beside it.
    for (const date of ['20250201', '20250202', '20250203', '20250204'])
      writeFileSync(join(backups, `library-${date}T000000-before-format-15.sqlite`), '');
    const cut = join(backups, 'library-20250205T000000-before-format-15.sqlite');
    writeFileSync(cut, readFileSync(small).subarray(0, 8192));
    writeFileSync(`${cut}-journal`, Buffer.alloc(512));
    writePreviousFormatLibrary(seed, { catalogBytes: 2_000_000 });

    const data = join(work, 'data');
    const script = `
      set -u
      mkdir -p "$DATA"
      mount -t tmpfs -o size=8m tmpfs "$DATA"
      cp -a "$SEED/." "$DATA/"
      dd if=/dev/zero of="$DATA/filler" bs=64k 2>/dev/null
      dd if=/dev/zero of="$DATA/filler-small" bs=4k 2>/dev/null
      truncate -s -256K "$DATA/filler"
      for run in 1 2; do
        node --import tsx "$CLI" jobs > "$WORK/full-$run.out" 2> "$WORK/full-$run.err"; echo $? > "$WORK/full-$run.code"
      done
      cp -a "$DATA/backups" "$WORK/backups-while-full"
      rm -f "$DATA/filler" "$DATA/filler-small"
      node --import tsx "$CLI" jobs --json > "$WORK/room.out" 2> "$WORK/room.err"; echo $? > "$WORK/room.code"
      cp -a "$DATA/backups" "$WORK/backups-after"
    `;
    writeFileSync(join(work, 'run.sh'), script);
    const child = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', join(work, 'run.sh')], {
      env: { ...process.env, DATA: data, SEED: seed, WORK: work, CLI: cliEntry, VERBATIM_DATA_DIR: data },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let shellErrors = '';
    child.stderr.on('data', (chunk: Buffer) => (shellErrors += chunk.toString()));
    expect(await new Promise((resolveEnd) => child.on('close', resolveEnd)), shellErrors).toBe(0);
    const read = (name: string): string => readFileSync(join(work, name), 'utf8');

    for (const run of [1, 2]) {
      expect(read(`full-${run}.code`).trim(), read(`full-${run}.err`)).toBe('1');
      expect(read(`full-${run}.err`)).toContain(`The disk holding ${join(data, 'library.sqlite')} is full.`);
      expect(read(`full-${run}.err`)).not.toMatch(/damaged|SqliteError|at .*\.ts:\d+/);
    }
    // The full disk left no copy behind, and the older Verbatim's empty and cut copies are gone.
    expect(filesIn(join(work, 'backups-while-full'))).toEqual(
      dailies.map((name) => ({ name, size: statSync(join(backups, name)).size })),
    );

    expect(read('room.code').trim(), read('room.err')).toBe('0');
    expect((JSON.parse(read('room.out')) as { title: string }[]).map((job) => job.title)).toEqual([
      'Harbour board interview',
    ]);
    const after = join(work, 'backups-after');
    expectOnlyGoodBackups(after);
    const kept = filesIn(after).map((file) => file.name);
    expect(kept).toEqual(expect.arrayContaining(dailies));
    expect(kept.filter((name) => name.includes('-before-format-'))).toHaveLength(1);
  }, 120_000);
});

describe('a backup copy cut short by a SIGKILL', () => {
  it('is never counted as a backup, and the next run removes it and makes a good one', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'verbatim-backup-kill-')), 'data');
    writePreviousFormatLibrary(dataDir, { catalogBytes: 160_000_000 });
    const backups = join(dataDir, 'backups');
    const env = { VERBATIM_DATA_DIR: dataDir };

    const upgrading = startCliProcess(['jobs'], env);
    let ended = false;
    void upgrading.finished.then(() => (ended = true));
    // Kill it while the copy is being written: a file in the backups folder, growing.
    while (!ended && !(existsSync(backups) && filesIn(backups).some((file) => file.size > 0)))
      await new Promise((resolveWait) => setTimeout(resolveWait, 5));
    expect(ended, 'the copy finished before it could be killed').toBe(false);
    upgrading.child.kill('SIGKILL');
    expect((await upgrading.finished).code).toBeNull();

    const next = await runCliProcess(['jobs', '--json'], env);
    expect(next.code, next.stderr).toBe(0);
    expect((JSON.parse(next.stdout) as { title: string }[]).map((job) => job.title)).toEqual([
      'Harbour board interview',
    ]);
    expectOnlyGoodBackups(backups);
    expect(filesIn(backups)).toHaveLength(1);
  }, 180_000);
});
