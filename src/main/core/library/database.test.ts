import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, schemaVersion } from './database';
import { migrations } from './migrations/index';
import { VerbatimError } from '../../../shared/errors';

describe('opening the library database', () => {
  it('creates a WAL database with foreign keys at the latest version', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-db-')), 'library.sqlite');
    const db = openDatabase(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(schemaVersion(db)).toBe(migrations.at(-1)?.version);
    db.close();
  });

  it('refuses a database written by a newer Verbatim, and leaves it untouched', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-db-')), 'library.sqlite');
    const future = new Database(path);
    future.pragma(`user_version = ${migrations.length + 5}`);
    future.exec('CREATE TABLE from_the_future (x)');
    future.close();
    let error: unknown;
    try {
      openDatabase(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VerbatimError);
    expect((error as VerbatimError).message).toMatch(/newer version of Verbatim/);
    const again = new Database(path);
    expect(again.pragma('user_version', { simple: true })).toBe(migrations.length + 5);
    again.close();
  });
});
