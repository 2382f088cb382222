import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from './database';
import { backupFolder, backupLibrary, backupsKept, listBackups } from './library-backups';

/** What a backups folder may hold when a backup is made: real copies, and what crashes left. */
const kinds = ['good', 'empty', 'cut short', 'journal beside it', 'partial of a process gone'] as const;
type Kind = (typeof kinds)[number];
/** No process has this id (above Linux's largest). */
const goneProcess = 99_999_999;

const libraryPath = join(mkdtempSync(join(tmpdir(), 'verbatim-backups-')), 'library.sqlite');
const library = openDatabase(libraryPath);
const realCopy = join(mkdtempSync(join(tmpdir(), 'verbatim-backup-copy-')), 'copy.sqlite');
library.prepare('VACUUM INTO ?').run(realCopy);

function place(folder: string, name: string, kind: Kind): void {
  const path = join(folder, name);
  if (kind === 'good') copyFileSync(realCopy, path);
  else if (kind === 'empty') writeFileSync(path, '');
  else if (kind === 'cut short') writeFileSync(path, readFileSync(realCopy).subarray(0, 4096));
  else if (kind === 'journal beside it') {
    copyFileSync(realCopy, path);
    writeFileSync(`${path}-journal`, Buffer.alloc(512));
  } else writeFileSync(`${path}.${goneProcess}.partial`, readFileSync(realCopy).subarray(0, 4096));
}

function quickCheck(path: string): string {
  const copy = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return String(copy.pragma('quick_check', { simple: true }));
  } finally {
    copy.close();
  }
}

describe('rotating the automatic backups', () => {
  it('whatever the folder held, keeps only good backups: the new one and the newest good ones, five at most', () => {
    const folder = backupFolder(libraryPath);
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({ day: fc.integer({ min: 1, max: 365 }), kind: fc.constantFrom(...kinds) }),
          {
            selector: (file) => file.day,
            maxLength: 12,
          },
        ),
        (files) => {
          rmSync(folder, { recursive: true, force: true });
          mkdirSync(folder);
          const named = files.map(({ day, kind }) => ({
            name: `library-${new Date(Date.UTC(2025, 0, day)).toISOString().slice(0, 10).replaceAll('-', '')}T000000-daily.sqlite`,
            kind,
          }));
          for (const { name, kind } of named) place(folder, name, kind);

          const made = backupLibrary(library, libraryPath, 'test', new Date(Date.UTC(2026, 5, 1)));

          const goodBefore = named
            .filter((file) => file.kind === 'good')
            .map((file) => file.name)
            .sort()
            .reverse();
          const expected = [made, ...goodBefore.slice(0, backupsKept - 1).map((name) => join(folder, name))];
          expect(listBackups(libraryPath)).toEqual(expected);
          expect(
            readdirSync(folder)
              .map((name) => join(folder, name))
              .sort(),
          ).toEqual([...expected].sort());
          for (const path of expected) expect(quickCheck(path)).toBe('ok');
        },
      ),
      { numRuns: 40 },
    );
  });
});
