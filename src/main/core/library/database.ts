import Database from 'better-sqlite3';
import { VerbatimError } from '../../../shared/errors';
import { migrations as allMigrations } from './migrations/index';

export type Db = Database.Database;

/**
 * Opens (or creates) the library database: WAL for concurrent readers and crash safety,
 * foreign keys on, migrations brought up to date. A database written by a newer Verbatim is
 * refused rather than risked.
 */
export function openDatabase(path: string, migrations = allMigrations): Db {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
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

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Db, migrations = allMigrations): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current > latest) {
    throw new VerbatimError(
      'storage',
      `This library was saved by a newer version of Verbatim (format ${current}; this version reads up to ${latest}). Update Verbatim to open it — nothing was changed.`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    inWriteTransaction(db, () => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    });
  }
}
