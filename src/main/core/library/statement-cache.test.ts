import { describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { cachedStatementCount, forgetStatements, statement, statementsKept } from './statement-cache';
import { LibraryDatabase } from './library-database';
import { openDatabase } from './database';

describe('statement cache', () => {
  it('prepares a statement once per connection and reuses it', () => {
    const db = new Database(':memory:');
    const prepare = vi.spyOn(db, 'prepare');
    const first = statement(db, 'SELECT 1 AS n');
    const again = statement(db, 'SELECT 1 AS n');
    expect(again).toBe(first);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(again.get()).toEqual({ n: 1 });

    // Another connection has its own statements.
    const other = new Database(':memory:');
    expect(statement(other, 'SELECT 1 AS n')).not.toBe(first);
    db.close();
    other.close();
  });

  it('the stores use it: a repeated read prepares nothing new', async () => {
    const db = openDatabase(':memory:');
    const library = LibraryDatabase.over(db).library(() => 1);
    await library.list();
    const prepare = vi.spyOn(db, 'prepare');
    await library.list();
    await library.list();
    expect(prepare).not.toHaveBeenCalled();
    db.close();
  });

  it('keeps nothing for a closed connection', () => {
    const database = LibraryDatabase.over(openDatabase(':memory:'));
    const db = LibraryDatabase.connectionOf(database);
    database.library(() => 1);
    statement(db, 'SELECT count(*) FROM transcripts');
    expect(cachedStatementCount(db)).toBeGreaterThan(0);
    database.close();
    expect(cachedStatementCount(db)).toBe(0);

    // Closed behind the cache's back: the next use drops the statements and says why.
    const bare = new Database(':memory:');
    statement(bare, 'SELECT 1');
    bare.close();
    expect(() => statement(bare, 'SELECT 1')).toThrow(/not open/);
    expect(cachedStatementCount(bare)).toBe(0);
  });

  it('keeps at most statementsKept texts, dropping the oldest', () => {
    const db = new Database(':memory:');
    for (let n = 0; n <= statementsKept; n += 1) statement(db, `SELECT ${n}`);
    expect(cachedStatementCount(db)).toBe(statementsKept);
    const prepare = vi.spyOn(db, 'prepare');
    statement(db, `SELECT ${statementsKept}`);
    expect(prepare).not.toHaveBeenCalled();
    statement(db, 'SELECT 0');
    expect(prepare).toHaveBeenCalledTimes(1);
    forgetStatements(db);
    db.close();
  });
});
