import Database from 'better-sqlite3';
import { closeSync, openSync, readSync, statSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import { migrations as allMigrations } from './migrations/index';
import { backupFolder, backupLibrary, newestOpeningBackup } from './library-backups';
import { clearDamageMark, findDamage, markDamaged, wasFoundDamaged, type Damage } from './library-damage';
import type { Db } from './db';

export type { Db } from './db';

const sqliteHeader = Buffer.from('SQLite format 3\0', 'latin1');

export interface OpenOptions {
  /**
   * Called once when another process is upgrading the library and this one waits for it
   * (the command line says so on stderr).
   */
  onWaitingForUpgrade?: () => void;
  /**
   * Told when an upgrade starts (the lock held, the version read again) and as each of its steps
   * starts, so the upgrade can be shown (library-upgrade-worker.ts).
   */
  upgradeObserver?: UpgradeObserver;
}

/** One step of an upgrade: the backup of the old library, or a numbered migration. */
export type UpgradeStepId = 'backup' | number;

export interface UpgradeObserver {
  starting(db: Db, fromVersion: number): void;
  step(step: UpgradeStepId): void;
}

/**
 * Opens (or creates) the library database: WAL for concurrent readers and crash safety,
 * foreign keys on, migrations brought up to date (after a backup of the old version). A file
 * that is not a library Verbatim can read — empty, not SQLite, damaged, unreadable, written by
 * a newer Verbatim — is refused with a plain message saying what to do, and never changed.
 */
export function openDatabase(path: string, migrations = allMigrations, options: OpenOptions = {}): Db {
  if (path !== ':memory:') refuseUnreadableFile(path);
  let db: Db;
  try {
    db = new Database(path);
  } catch (error) {
    throw libraryFileError(path, error);
  }
  try {
    db.pragma('busy_timeout = 5000');
    // Reading the schema first proves the file is a database before anything is written to it.
    refuseNewerLibrary(schemaVersion(db), migrations);
    refuseDamagedLibrary(db, path);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    if (schemaVersion(db) < latestVersion(migrations)) upgrade(db, path, migrations, options);
    return db;
  } catch (error) {
    db.close();
    throw error instanceof VerbatimError ? error : libraryFileError(path, error);
  }
}

/**
 * A damaged library is refused before anything is written to it (library-damage.ts: a look at
 * every b-tree, or the whole quick_check once a command has met damage in it).
 */
function refuseDamagedLibrary(db: Db, path: string): void {
  const foundBefore = wasFoundDamaged(path);
  const damage = findDamage(db, { thorough: foundBefore });
  if (!damage) {
    // Repaired, or a backup copied over it.
    if (foundBefore) clearDamageMark(path);
    return;
  }
  markDamaged(path);
  throw damagedLibraryError(path, damage);
}

/** The command that rebuilds what can be rebuilt in a damaged library (library-repair.ts). */
export const repairCommandLine = 'npm run cli -- library repair';

/**
 * A damaged library in a sentence: where, if known, and what to do. Verbatim writes nothing
 * into it until it is repaired or restored.
 */
export function damagedLibraryError(path: string, damage?: Damage): VerbatimError {
  const where = damage?.table ? ` (${describeDamage(damage)})` : '';
  return new VerbatimError(
    'storage',
    `The library file ${path} is damaged${where}, so Verbatim will not write to it. Quit Verbatim and run "${repairCommandLine}" to rebuild what can be rebuilt, or ${restoreAdvice(path).replace(/^R/, 'r')}`,
    { cause: 'SQLITE_CORRUPT' },
  );
}

function describeDamage({ name, table }: Damage): string {
  if (/_fts(_\w+)?$/.test(table)) return 'in its search index';
  return name === table ? `in its ${table} table` : `in an index of its ${table} table`;
}

function latestVersion(migrations: readonly { version: number }[]): number {
  return migrations.at(-1)?.version ?? 0;
}

/**
 * Backs the library up and migrates it, one process at a time: the others wait for the
 * upgrade lock, then find the library already upgraded (the version is read again once the
 * lock is held), so no migration runs twice and no half-upgraded library is read as damaged.
 */
function upgrade(db: Db, path: string, migrations: typeof allMigrations, options: OpenOptions): void {
  const release = path === ':memory:' ? () => undefined : takeUpgradeLock(path, options);
  try {
    const current = schemaVersion(db);
    refuseNewerLibrary(current, migrations);
    const latest = latestVersion(migrations);
    const observer = options.upgradeObserver;
    if (current < latest) observer?.starting(db, current);
    if (path !== ':memory:' && current > 0 && current < latest) {
      observer?.step('backup');
      backupLibrary(db, path, `before-format-${latest}`);
    }
    migrate(db, migrations, observer ? (version) => observer.step(version) : undefined);
  } finally {
    release();
  }
}

/** How long a process waits for another's upgrade before giving up: a large library's is minutes. */
const upgradeWaitMs = 60 * 60 * 1000;

/**
 * The upgrade lock: SQLite's exclusive lock on a small file beside the library, so the system
 * releases it when its holder ends, even killed, and a waiter never finds a stale lock.
 */
function takeUpgradeLock(libraryPath: string, { onWaitingForUpgrade }: OpenOptions): () => void {
  const lock = new Database(`${libraryPath}-upgrade.lock`, { timeout: 0 });
  try {
    try {
      lock.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
      onWaitingForUpgrade?.();
      lock.pragma(`busy_timeout = ${upgradeWaitMs}`);
      lock.exec('BEGIN EXCLUSIVE');
    }
  } catch (error) {
    lock.close();
    throw error;
  }
  return () => {
    lock.exec('ROLLBACK');
    lock.close();
  };
}

/** An existing file that cannot be a library is refused before SQLite touches it. */
function refuseUnreadableFile(path: string): void {
  let size: number;
  try {
    const stats = statSync(path);
    if (stats.isDirectory())
      throw new VerbatimError(
        'storage',
        `${path} is a folder, not a library file. Move it away or choose another data folder; Verbatim changed nothing.`,
      );
    size = stats.size;
  } catch (error) {
    if (error instanceof VerbatimError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // a new library
    throw libraryFileError(path, error);
  }
  if (size === 0)
    throw new VerbatimError(
      'storage',
      `The library file ${path} is empty (0 bytes): a crash or a sync program may have emptied it. ${restoreAdvice(path)}`,
    );
  const head = Buffer.alloc(sqliteHeader.length);
  try {
    const fd = openSync(path, 'r');
    try {
      readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw libraryFileError(path, error);
  }
  if (!head.equals(sqliteHeader))
    throw new VerbatimError(
      'storage',
      `${path} is not a Verbatim library (it is not an SQLite database). ${restoreAdvice(path)}`,
    );
}

function refuseNewerLibrary(current: number, migrations: readonly { version: number }[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new VerbatimError(
      'storage',
      `This library was saved by a newer version of Verbatim (format ${current}; this version reads up to ${latest}). Update Verbatim to open it — nothing was changed.`,
    );
  }
}

/** Less room than this beside the library is a full disk: SQLite cannot even open its WAL. */
const fullDiskBytes = 1024 * 1024;

function diskIsFull(path: string): boolean {
  try {
    const { bavail, bsize } = statfsSync(dirname(path));
    return bavail * bsize < fullDiskBytes;
  } catch {
    return false;
  }
}

/** Where the backups are and which to restore: the end of every message about a library that cannot be used. */
export function restoreAdvice(path: string): string {
  const backup = newestOpeningBackup(path);
  const where = backup ? ` The newest automatic backup is ${backup}.` : '';
  return `Restore it from a backup (copy a file from ${backupFolder(path)} over it), or move it away to start a new library.${where} Verbatim changed nothing.`;
}

/** SQLite's and the file system's failures, in words that say which file and what to do. */
function libraryFileError(path: string, error: unknown): VerbatimError {
  const raw = (error as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw : '';
  if (code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN')
    return new VerbatimError(
      'storage',
      `Verbatim cannot read and write the library ${path}: permission denied or the folder is read-only. Give your user access to it, or choose another data folder in Settings.`,
      { cause: code },
    );
  // A full disk can reach SQLite as an I/O error (the shared-memory file cannot grow).
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || (code.startsWith('SQLITE_IOERR') && diskIsFull(path)))
    return new VerbatimError(
      'storage',
      `The disk holding ${path} is full. Free some space, then start Verbatim again; nothing was lost.`,
      { cause: code },
    );
  if (code.startsWith('SQLITE_IOERR'))
    return new VerbatimError(
      'storage',
      `Verbatim could not read or write the library ${path}: the disk reported an error (it may be failing or disconnected). Check the disk, then start Verbatim again; Verbatim changed nothing.`,
      { cause: code },
    );
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB')
    return new VerbatimError(
      'storage',
      `The library file ${path} is damaged and cannot be read. ${restoreAdvice(path)}`,
      { cause: code },
    );
  return new VerbatimError(
    'storage',
    `The library ${path} could not be opened: ${error instanceof Error ? error.message : String(error)}`,
    { cause: code },
  );
}

/**
 * Runs `work` in a transaction that takes the write lock up front (BEGIN IMMEDIATE). Another
 * process may write to the same library: a transaction that reads first and writes later
 * fails at once with "database is locked" when the other writer committed in between, while
 * one that asks for the lock first simply waits for it (busy_timeout).
 */
export function inWriteTransaction<T>(db: Db, work: () => T): T {
  return db.transaction(work).immediate();
}

/**
 * Runs reads that answer together in one read transaction: in WAL mode its snapshot holds from
 * the first read, so another process's write between two of them is not half seen.
 */
export function inReadTransaction<T>(db: Db, work: () => T): T {
  return db.transaction(work).deferred();
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Db, migrations = allMigrations, onMigration?: (version: number) => void): void {
  const current = schemaVersion(db);
  refuseNewerLibrary(current, migrations);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    onMigration?.(migration.version);
    inWriteTransaction(db, () => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    });
  }
}
