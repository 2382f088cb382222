import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { VerbatimError } from '../../../shared/errors';
import { openDatabase } from './database';
import { repairLibrary } from './library-repair';

/** A library whose search index's root page was written over. */
function libraryWithDamagedSearchIndex(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'verbatim-repair-')), 'library.sqlite');
  const db = openDatabase(path);
  db.exec(
    "INSERT INTO transcripts (id, title, source_kind, source, region, status, options_json, created_at, updated_at) VALUES ('t1', 'Ferry', 'file', '/a.wav', 'us', 'completed', '{}', 1, 1)",
  );
  db.exec(
    "INSERT INTO sentences (transcript_id, position, start_ms, end_ms, text) VALUES ('t1', 0, 0, 900, 'The ferry contract was signed.')",
  );
  const { rootpage } = db
    .prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'sentences_fts_data'")
    .get() as {
    rootpage: number;
  };
  db.close();
  const bytes = readFileSync(path);
  bytes.fill(0xee, (rootpage - 1) * 4096, rootpage * 4096);
  writeFileSync(path, bytes);
  return path;
}

describe('repairing a damaged library', () => {
  it('refuses while another Verbatim has the library open, changing nothing, and repairs once it is closed', () => {
    const path = libraryWithDamagedSearchIndex();
    const before = readFileSync(path);
    const other = new Database(path, { readonly: true });
    other.prepare('SELECT count(*) FROM transcripts').get();
    let refusal: unknown;
    try {
      repairLibrary(path);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(VerbatimError);
    expect((refusal as VerbatimError).message).toBe(
      `Another Verbatim (the app, the browser version or a command) has the library ${path} open. Quit it, then run the repair again.`,
    );
    expect(readFileSync(path).equals(before)).toBe(true);
    other.close();

    expect(repairLibrary(path)).toMatchObject({ repaired: true, damage: { table: 'sentences_fts_data' } });
    const repaired = openDatabase(path);
    expect(
      repaired.prepare("SELECT rowid FROM sentences_fts WHERE sentences_fts MATCH 'ferry'").all(),
    ).toEqual([{ rowid: 1 }]);
    repaired.close();
  });
});
