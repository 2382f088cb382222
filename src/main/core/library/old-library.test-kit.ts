import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Db } from './database';
import { migrations } from './migrations/index';

/** The format before the newest: what a library made by the previous Verbatim is at. */
export const previousFormat = migrations.at(-2)!.version;

/**
 * A library as the previous Verbatim left it (one format behind, so opening it upgrades it),
 * in `dataDir/library.sqlite`, with one completed transcript titled `title` and `catalogBytes`
 * of cached catalog entries to make it as large as a test needs.
 */
export function writePreviousFormatLibrary(
  dataDir: string,
  { title = 'Harbour board interview', catalogBytes = 0 }: { title?: string; catalogBytes?: number } = {},
): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'library.sqlite');
  const db = openDatabase(path, migrations.slice(0, -1));
  db.prepare(
    "INSERT INTO transcripts (id, title, source_kind, source, region, status, options_json, created_at, updated_at) VALUES ('t1', ?, 'file', '/a.wav', 'us', 'completed', '{}', 1, 1)",
  ).run(title);
  fillCatalog(db, catalogBytes);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return path;
}

function fillCatalog(db: Db, bytes: number): void {
  const entry = JSON.stringify({ description: 'x'.repeat(4000) });
  const insert = db.prepare("INSERT INTO catalog_models (host, id, position, json) VALUES ('h', ?, ?, ?)");
  db.transaction(() => {
    for (let position = 0; position * entry.length < bytes; position++)
      insert.run(`model-${position}`, position, entry);
  })();
}
