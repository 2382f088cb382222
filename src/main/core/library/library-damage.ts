import { existsSync, rmSync, writeFileSync } from 'node:fs';
import type { Db } from './db';

/**
 * Damage in the library file: a page overwritten by a failing disk, a sync program or a crash.
 *
 * At open, every table and index has its first page read (and a rowid table its last row too):
 * a handful of pages per b-tree whatever the library's size, so the check stays a few
 * milliseconds at 10,000 hours, and it finds a damaged root page, where one b-tree's damage
 * takes the whole table with it. Damage deeper in a b-tree shows as SQLITE_CORRUPT when a
 * command reaches it: that is recorded beside the library (`library.sqlite.damaged`), and from
 * then on every open runs SQLite's full quick_check before the library is used, so nothing is
 * written into it — no job sent, no edit saved — until it is repaired or restored.
 */

/** SQLite's words for a file whose pages are not what they should be. */
export function isLibraryDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

export function damageMarkOf(libraryPath: string): string {
  return `${libraryPath}.damaged`;
}

/** Records that a command found the library damaged, so the next open checks it whole. */
export function markDamaged(libraryPath: string): void {
  if (libraryPath === ':memory:') return;
  try {
    writeFileSync(damageMarkOf(libraryPath), `${new Date().toISOString()}\n`);
  } catch {
    // A full or read-only disk: the damage is still said; the next command finds it again.
  }
}

export function clearDamageMark(libraryPath: string): void {
  rmSync(damageMarkOf(libraryPath), { force: true });
}

/** A damaged b-tree: a table or index (`name`) and the table it belongs to; empty when unknown. */
export interface Damage {
  name: string;
  table: string;
}

/**
 * Where the library is damaged, or undefined when the check finds nothing: the cheap look at
 * every b-tree, or SQLite's whole quick_check when a command found damage before (`thorough`).
 */
export function findDamage(db: Db, { thorough }: { thorough: boolean }): Damage | undefined {
  if (thorough) return quickCheckDamage(db);
  const btrees = db
    .prepare(
      "SELECT type, name, tbl_name AS tableName, sql FROM sqlite_schema WHERE rootpage > 0 AND type IN ('table', 'index')",
    )
    .all() as { type: 'table' | 'index'; name: string; tableName: string; sql: string | null }[];
  for (const btree of btrees) {
    for (const probe of probesOf(db, btree)) {
      try {
        db.prepare(probe).all();
      } catch (error) {
        if (isLibraryDamage(error)) return { name: btree.name, table: btree.tableName };
        throw error;
      }
    }
  }
  return undefined;
}

/** Queries that each read a b-tree's root page and a path down from it. */
function probesOf(
  db: Db,
  { type, name, tableName, sql }: { type: string; name: string; tableName: string; sql: string | null },
): string[] {
  const table = quoted(tableName);
  if (type === 'table') {
    const withoutRowid = /WITHOUT\s+ROWID\s*$/i.test(sql ?? '');
    return withoutRowid
      ? [`SELECT 1 FROM ${table} LIMIT 1`]
      : [
          `SELECT rowid FROM ${table} ORDER BY rowid LIMIT 1`,
          `SELECT rowid FROM ${table} ORDER BY rowid DESC LIMIT 1`,
        ];
  }
  // A partial index serves only queries with its own condition.
  const partial = /\bWHERE\b([\s\S]*)$/i.exec(sql ?? '')?.[1];
  const probe = `SELECT 1 FROM ${table} INDEXED BY ${quoted(name)}${partial ? ` WHERE ${partial}` : ''} LIMIT 1`;
  try {
    db.prepare(probe);
    return [probe];
  } catch (error) {
    if (isLibraryDamage(error)) throw error;
    return []; // an index no query can be made to read alone; quick_check covers it
  }
}

function quickCheckDamage(db: Db): Damage | undefined {
  const rows = db.pragma('quick_check(1)') as { quick_check: string }[];
  const verdict = rows[0]?.quick_check ?? 'ok';
  if (verdict === 'ok') return undefined;
  const tree = /Tree (\d+) page/.exec(verdict)?.[1];
  const btree = tree
    ? (db
        .prepare('SELECT name, tbl_name AS "table" FROM sqlite_schema WHERE rootpage = ?')
        .get(Number(tree)) as Damage | undefined)
    : undefined;
  return btree ?? { name: '', table: '' };
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Whether a command found damage in this library before (see `markDamaged`). */
export function wasFoundDamaged(libraryPath: string): boolean {
  return libraryPath !== ':memory:' && existsSync(damageMarkOf(libraryPath));
}
