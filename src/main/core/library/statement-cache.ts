import type { Statement } from 'better-sqlite3';
import type { Db } from './db';

/**
 * Prepared statements kept per connection, so a store's hot path (a search on every keystroke,
 * a word edit) compiles its SQL once. Keyed weakly by the connection: a connection dropped by
 * its owner takes its statements with it, and `forgetStatements` releases them at close.
 */
const statementsOf = new WeakMap<Db, Map<string, Statement>>();

/**
 * More distinct texts than this on one connection means the SQL is built from data (an IN
 * list of varying length); the oldest are dropped so the cache cannot grow without end.
 */
export const statementsKept = 256;

/** The connection's prepared statement for `sql`, prepared on first use and then reused. */
export function statement(db: Db, sql: string): Statement {
  // A closed connection keeps nothing; its prepare throws the usual "not open" error.
  if (!db.open) forgetStatements(db);
  let statements = statementsOf.get(db);
  if (!statements) {
    statements = new Map();
    statementsOf.set(db, statements);
  }
  const known = statements.get(sql);
  if (known) return known;
  const prepared = db.prepare(sql);
  if (statements.size >= statementsKept) statements.delete(statements.keys().next().value!);
  statements.set(sql, prepared);
  return prepared;
}

/** How many statements are kept for the connection (what the cache's tests look at). */
export function cachedStatementCount(db: Db): number {
  return statementsOf.get(db)?.size ?? 0;
}

/** Drops a connection's statements: called when it closes, as they cannot run again. */
export function forgetStatements(db: Db): void {
  statementsOf.delete(db);
}
