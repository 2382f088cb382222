import Database from 'better-sqlite3';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db } from './db';

/** How many automatic backups are kept beside the library (the newest good ones). */
export const backupsKept = 5;
const day = 24 * 60 * 60 * 1000;
const sqliteHeader = Buffer.from('SQLite format 3\0', 'latin1');
/** A copy in progress: `<final name>.<pid of the writer>.partial` (and SQLite's `-journal` beside it). */
const partialName = /^(library-.+\.sqlite)\.(\d+)\.partial(-journal|-wal|-shm)?$/;

export function backupFolder(libraryPath: string): string {
  return join(dirname(libraryPath), 'backups');
}

/**
 * The automatic backups of a library that can be trusted, newest first. A file under a backup's
 * name that cannot be one (empty, cut short, a journal still beside it: an older Verbatim's copy
 * interrupted by a full disk or a crash) is not counted, so rotation never keeps it in place of
 * a real one and no message points to it.
 */
export function listBackups(libraryPath: string): string[] {
  const folder = backupFolder(libraryPath);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.startsWith('library-') && name.endsWith('.sqlite'))
    .sort()
    .reverse()
    .map((name) => join(folder, name))
    .filter(looksWhole);
}

/** The newest backup that opens as a library: the one a "restore it from a backup" message names. */
export function newestOpeningBackup(libraryPath: string): string | undefined {
  return listBackups(libraryPath).find((backup) => {
    try {
      checkOpensAsLibrary(backup, { thorough: false });
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * A consistent copy of the library (SQLite's VACUUM INTO: readers and the WAL included) in the
 * backups folder, checked before it takes its name; only the newest few are kept.
 */
export function backupLibrary(db: Db, libraryPath: string, reason: string, now = new Date()): string {
  const target = backupTarget(libraryPath, reason, now);
  const partial = partialOf(target);
  try {
    db.prepare('VACUUM INTO ?').run(partial);
  } catch (error) {
    removeCopy(partial);
    throw error;
  }
  return keepIfGood(libraryPath, partial, target);
}

/**
 * The daily backup, when the newest good one is a day old or there is none: SQLite's online
 * backup, a few pages at a time, so the app and the CLI keep working while it copies. Written
 * under a temporary name and renamed once whole and checked, so an interrupted or failed copy
 * never passes for a backup.
 */
export async function backupIfDue(
  db: Db,
  libraryPath: string,
  now = new Date(),
): Promise<string | undefined> {
  const newest = listBackups(libraryPath)[0];
  if (newest && now.getTime() - statSync(newest).mtimeMs < day) return undefined;
  const target = backupTarget(libraryPath, 'daily', now);
  const partial = partialOf(target);
  try {
    await db.backup(partial);
    // quick_check reads every page: off this thread, so the app is not held while it runs.
    checkOpensAsLibrary(partial, { thorough: false });
    const verdict = await quickCheckOffThread(partial);
    if (verdict !== 'ok') throw new Error(`${partial} failed its check: ${verdict}`);
  } catch (error) {
    removeCopy(partial);
    throw error;
  }
  return keepIfGood(libraryPath, partial, target, { checked: true });
}

const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');
const quickCheckScript = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const copy = new Database(workerData.path, { readonly: true, fileMustExist: true });
try {
  parentPort.postMessage(String(copy.pragma('quick_check', { simple: true })));
} finally {
  copy.close();
}`;

/** SQLite's quick_check of a file, in a worker thread: "ok", or what it found. */
function quickCheckOffThread(path: string): Promise<string> {
  return new Promise((resolveCheck, reject) => {
    const worker = new Worker(quickCheckScript, { eval: true, workerData: { module: betterSqlite, path } });
    worker.once('message', (verdict: string) => resolveCheck(verdict));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the backup check stopped (exit code ${code})`)));
  });
}

function backupTarget(libraryPath: string, reason: string, now: Date): string {
  const folder = backupFolder(libraryPath);
  mkdirSync(folder, { recursive: true });
  removeLeftovers(libraryPath);
  return join(folder, `library-${timestamp(now)}-${reason}.sqlite`);
}

function partialOf(target: string): string {
  return `${target}.${process.pid}.partial`;
}

/** Renames a finished copy to its backup name once it proves whole, then rotates; a bad copy is removed. */
function keepIfGood(
  libraryPath: string,
  partial: string,
  target: string,
  { checked }: { checked: boolean } = { checked: false },
): string {
  try {
    if (!checked) checkOpensAsLibrary(partial, { thorough: true });
  } catch (error) {
    removeCopy(partial);
    throw error;
  }
  rmSync(target, { force: true });
  renameSync(partial, target);
  // Only good backups are listed, so the newest good one is never among those removed.
  for (const old of listBackups(libraryPath).slice(backupsKept)) removeCopy(old);
  return target;
}

/**
 * Throws unless `path` opens as a Verbatim library: not empty, an SQLite database with the
 * library's tables, and (thorough) SQLite's quick_check finds every page in order.
 */
export function checkOpensAsLibrary(path: string, { thorough }: { thorough: boolean }): void {
  if (!looksWhole(path)) throw new Error(`${path} is empty or cut short.`);
  const copy = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = copy
      .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'transcripts'")
      .get() as {
      n: number;
    };
    if (tables.n !== 1) throw new Error(`${path} holds no library.`);
    if (thorough) {
      const verdict = copy.pragma('quick_check', { simple: true });
      if (verdict !== 'ok') throw new Error(`${path} failed its check: ${String(verdict)}`);
    }
  } finally {
    copy.close();
  }
}

/**
 * A cheap look at a backup file, for listing: not empty, no journal left beside it (a copy that
 * never finished), an SQLite header, and as many bytes as the header's page count says.
 */
function looksWhole(path: string): boolean {
  try {
    if (existsSync(`${path}-journal`) || existsSync(`${path}-wal`)) return false;
    const size = statSync(path).size;
    if (size < 100) return false;
    const header = Buffer.alloc(100);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, header, 0, 100, 0);
    } finally {
      closeSync(fd);
    }
    if (!header.subarray(0, sqliteHeader.length).equals(sqliteHeader)) return false;
    const rawPageSize = header.readUInt16BE(16);
    const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
    const pageCount = header.readUInt32BE(28);
    // The page count is valid when the change counter matches "version valid for".
    if (header.readUInt32BE(24) !== header.readUInt32BE(92)) return true;
    return pageCount * pageSize === size;
  } catch {
    return false;
  }
}

/**
 * Removes what interrupted copies left in the backups folder: a partial copy whose writer is
 * gone (killed, or the disk filled), and a file under a backup's name that cannot be one.
 * A partial whose writer still runs is another process's copy in progress and is left alone.
 */
function removeLeftovers(libraryPath: string): void {
  const folder = backupFolder(libraryPath);
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    const partial = partialName.exec(name);
    if (partial) {
      if (!isRunning(Number(partial[2]))) rmSync(path, { force: true });
    } else if (name.startsWith('library-') && name.endsWith('.sqlite') && !looksWhole(path)) {
      removeCopy(path);
    }
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true; // a copy this process is making (failed ones are removed at once)
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeCopy(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

function timestamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
}
