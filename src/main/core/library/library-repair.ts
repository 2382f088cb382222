import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { VerbatimError } from '../../../shared/errors';
import { openDatabase, restoreAdvice, schemaVersion } from './database';
import { clearDamageMark, findDamage, isLibraryDamage, type Damage } from './library-damage';
import { migrations } from './migrations/index';

export type RepairOutcome =
  | { repaired: false }
  /** `damagedCopy`: where the damaged file was moved, kept in case anything is missed. */
  | { repaired: true; damage: Damage; damagedCopy: string };

/**
 * Rebuilds a damaged library from what can still be read: every table that holds the
 * journalist's work is copied row for row into a new library file, whose indexes and search
 * indexes (built from that content) are therefore new; the new file must pass quick_check
 * before it takes the library's place, and the damaged one is kept beside it. When a table of
 * work itself cannot be read, nothing is changed and the message says to restore a backup.
 * Only while no other Verbatim has the library open.
 */
export function repairLibrary(path: string, now = new Date()): RepairOutcome {
  if (!existsSync(path))
    throw new VerbatimError('not_found', `There is no library at ${path}; nothing to repair.`);
  refuseWhileInUse(path);
  const damaged = new Database(path, { fileMustExist: true, timeout: 5000 });
  let damage: Damage | undefined;
  let version: number;
  try {
    damage = findDamage(damaged, { thorough: true });
    version = schemaVersion(damaged);
  } finally {
    damaged.close();
  }
  if (!damage) {
    clearDamageMark(path);
    return { repaired: false };
  }
  const rebuilt = `${path}.${process.pid}.repair`;
  removeFile(rebuilt);
  try {
    copyReadableLibrary(
      path,
      rebuilt,
      migrations.filter((migration) => migration.version <= version),
    );
  } catch (error) {
    removeFile(rebuilt);
    throw error;
  }
  const damagedCopy = path.replace(/(\.sqlite)?$/, `-damaged-${timestamp(now)}.sqlite`);
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${damagedCopy}${suffix}`);
  renameSync(rebuilt, path);
  clearDamageMark(path);
  return { repaired: true, damage, damagedCopy };
}

/** Swapping the file under another process would leave it writing into the damaged copy. */
function refuseWhileInUse(path: string): void {
  const probe = new Database(path, { fileMustExist: true, timeout: 0 });
  try {
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('COMMIT');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
    throw new VerbatimError(
      'conflict',
      `Another Verbatim (the app, the browser version or a command) has the library ${path} open. Quit it, then run the repair again.`,
    );
  } finally {
    probe.close();
  }
}

function copyReadableLibrary(from: string, to: string, formats: typeof migrations): void {
  openDatabase(to, formats).close();
  rmSync(`${to}-upgrade.lock`, { force: true });
  const db = new Database(to);
  try {
    db.pragma('foreign_keys = OFF');
    db.prepare('ATTACH DATABASE ? AS damaged').run(from);
    db.transaction(() => {
      const tables = tablesOfWork(db);
      // What the migrations put in a new library (the default highlight labels) comes from the old one.
      for (const table of tables) db.exec(`DELETE FROM main.${quoted(table)}`);
      for (const table of tables) copyTable(db, table, from);
      // Ids given out before (a deleted highlight's) are never given again.
      if (hasTable(db, 'main', 'sqlite_sequence') && hasTable(db, 'damaged', 'sqlite_sequence')) {
        db.exec('DELETE FROM main.sqlite_sequence');
        db.exec('INSERT INTO main.sqlite_sequence SELECT * FROM damaged.sqlite_sequence');
      }
    })();
    db.exec('DETACH DATABASE damaged');
    const verdict = db.pragma('quick_check', { simple: true });
    if (verdict !== 'ok') throw new Error(`the rebuilt library failed its check: ${String(verdict)}`);
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/**
 * The damaged library's tables that hold work: all but SQLite's own and the search indexes'
 * storage (an index is rebuilt from its content by the new file's triggers as rows arrive).
 */
function tablesOfWork(db: Database.Database): string[] {
  const schema = db
    .prepare(
      "SELECT name, sql FROM damaged.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    )
    .all() as { name: string; sql: string }[];
  const searchIndexes = schema
    .filter((table) => /^CREATE VIRTUAL TABLE/i.test(table.sql))
    .map((table) => table.name);
  return schema
    .filter(
      (table) => !searchIndexes.some((index) => table.name === index || table.name.startsWith(`${index}_`)),
    )
    .map((table) => table.name);
}

function copyTable(db: Database.Database, table: string, from: string): void {
  const columns = (
    db.prepare(`SELECT name FROM pragma_table_info(?, 'damaged')`).all(table) as { name: string }[]
  )
    .map((column) => quoted(column.name))
    .join(', ');
  try {
    db.exec(`INSERT INTO main.${quoted(table)} (${columns}) SELECT ${columns} FROM damaged.${quoted(table)}`);
  } catch (error) {
    if (!isLibraryDamage(error)) throw error;
    throw new VerbatimError(
      'storage',
      `The ${table} table of the library ${from} is damaged, and it holds work that cannot be rebuilt from elsewhere. ${restoreAdvice(from)}`,
      { cause: 'SQLITE_CORRUPT' },
    );
  }
}

function hasTable(db: Database.Database, schema: string, table: string): boolean {
  return db.prepare(`SELECT 1 FROM ${schema}.sqlite_schema WHERE name = ?`).get(table) !== undefined;
}

function removeFile(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function timestamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
}
