import { describe, expect, it } from 'vitest';
import {
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
import { openDatabase, schemaVersion } from './database';
import { backupFolder, backupIfDue, backupLibrary, backupsKept, listBackups } from './library-backups';
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

describe('a library file Verbatim cannot use', () => {
  function attempt(path: string): VerbatimError {
    try {
      openDatabase(path).close();
    } catch (error) {
      expect(error).toBeInstanceOf(VerbatimError);
      return error as VerbatimError;
    }
    throw new Error('the library opened');
  }

  function libraryWith(bytes: Buffer | string): string {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-db-')), 'library.sqlite');
    writeFileSync(path, bytes);
    return path;
  }

  it('refuses an empty file, never silently replacing it with a new library', () => {
    const path = libraryWith('');
    const error = attempt(path);
    expect(error.code).toBe('storage');
    expect(error.message).toMatch(/is empty \(0 bytes\).*Restore it from a backup.*Verbatim changed nothing/);
    expect(statSync(path).size).toBe(0);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('refuses a file that is not SQLite, and leaves its bytes as they were', () => {
    const path = libraryWith('These are my notes, not a database.\n'.repeat(200));
    const before = readFileSync(path);
    expect(attempt(path).message).toMatch(/is not a Verbatim library \(it is not an SQLite database\)/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a damaged library, names the newest backup, and changes nothing', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-db-')), 'library.sqlite');
    const db = openDatabase(path);
    const backup = backupLibrary(db, path, 'test');
    db.close();
    const damaged = readFileSync(path);
    damaged.fill(0xab, 100, damaged.length); // the header survives, the pages do not
    writeFileSync(path, damaged);
    const error = attempt(path);
    expect(error.message).toMatch(/is damaged and cannot be read/);
    expect(error.message).toContain(backup);
    expect(readFileSync(path).equals(damaged)).toBe(true);
  });

  it('names only a backup that opens: never an empty one, nor one that holds no library', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-db-')), 'library.sqlite');
    const db = openDatabase(path);
    const good = backupLibrary(db, path, 'test', new Date(Date.UTC(2026, 0, 1)));
    db.close();
    writeFileSync(join(backupFolder(path), 'library-20260301T000000-before-format-15.sqlite'), '');
    const notALibrary = new Database(join(backupFolder(path), 'library-20260201T000000-daily.sqlite'));
    notALibrary.exec('CREATE TABLE notes (text)');
    notALibrary.close();
    const damaged = readFileSync(path);
    damaged.fill(0xab, 100, damaged.length);
    writeFileSync(path, damaged);
    expect(attempt(path).message).toContain(`The newest automatic backup is ${good}.`);
  });

  it('refuses a folder where the library file should be', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-db-')), 'library.sqlite');
    mkdirSync(path);
    expect(attempt(path).message).toMatch(/is a folder, not a library file/);
  });
});

describe('automatic backups', () => {
  it('copies the library before a migration, at its old format, and keeps the newest five', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-db-')), 'library.sqlite');
    const old = openDatabase(path, migrations.slice(0, -1));
    old.exec(
      "INSERT INTO transcripts (id, title, source_kind, source, region, status, options_json, created_at, updated_at) VALUES ('t1', 'Kept', 'file', '/a.wav', 'us', 'completed', '{}', 1, 1)",
    );
    old.close();
    openDatabase(path).close();
    const [backup] = listBackups(path);
    expect(backup).toMatch(new RegExp(`before-format-${migrations.at(-1)!.version}\\.sqlite$`));
    const copy = new Database(backup, { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(migrations.at(-2)!.version);
    expect(copy.prepare('SELECT title FROM transcripts').all()).toEqual([{ title: 'Kept' }]);
    copy.close();

    const db = openDatabase(path);
    for (let day = 1; day <= 7; day++) backupLibrary(db, path, 'test', new Date(Date.UTC(2026, 0, day)));
    db.close();
    const kept = listBackups(path);
    expect(kept).toHaveLength(backupsKept);
    expect(kept.every((file) => !file.includes('20260101') && !file.includes('20260102'))).toBe(true);
  });

  it('makes a daily copy when the newest is a day old, and not before', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-db-')), 'library.sqlite');
    const db = openDatabase(path);
    const first = await backupIfDue(db, path);
    expect(first).toMatch(/-daily\.sqlite$/);
    expect(await backupIfDue(db, path)).toBeUndefined();
    const tomorrow = new Date(Date.now() + 25 * 60 * 60 * 1000);
    expect(await backupIfDue(db, path, tomorrow)).toMatch(/-daily\.sqlite$/);
    expect(readdirSync(backupFolder(path)).some((name) => name.endsWith('.partial'))).toBe(false);
    db.close();
  });

  it('keeps no daily copy that fails its check: a page damaged deep in the library is not backed up', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-db-')), 'library.sqlite');
    const seeded = openDatabase(path);
    const insert = seeded.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, region, status, options_json, created_at, updated_at) VALUES (?, ?, 'file', '/a.wav', 'us', 'completed', '{}', 1, 1)",
    );
    for (let n = 0; n < 400; n++) insert.run(`t${n}`, `Council meeting number ${n} `.repeat(8));
    const leaves = seeded
      .prepare("SELECT pageno FROM dbstat WHERE name = 'transcripts' AND pagetype = 'leaf' ORDER BY path")
      .all() as { pageno: number }[];
    seeded.close();
    const page = leaves[Math.floor(leaves.length / 2)]!.pageno;
    const bytes = readFileSync(path);
    bytes.fill(0xee, (page - 1) * 4096 + 100, page * 4096);
    writeFileSync(path, bytes);

    const db = openDatabase(path); // the damage is past what opening reads
    await expect(backupIfDue(db, path)).rejects.toThrow(/failed its check/);
    db.close();
    expect(readdirSync(backupFolder(path))).toEqual([]);
  });
});
