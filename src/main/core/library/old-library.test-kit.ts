import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Db } from './database';
import { migrations } from './migrations/index';

/** The format before the newest: what a library made by the previous Verbatim is at. */
export const previousFormat = migrations.at(-2)!.version;

/**
 * A library as an older Verbatim left it (by default the previous format, one behind, so
 * opening it upgrades it), in `dataDir/library.sqlite`, with one completed transcript titled
 * `title` holding `sentences` sentences (whose index an upgrade rebuilds), and `catalogBytes`
 * of cached catalog entries to make the file as large as a test needs.
 */
export function writePreviousFormatLibrary(
  dataDir: string,
  {
    title = 'Harbour board interview',
    sentences = 0,
    catalogBytes = 0,
    format = previousFormat,
  }: { title?: string; sentences?: number; catalogBytes?: number; format?: number } = {},
): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'library.sqlite');
  const db = openDatabase(
    path,
    migrations.filter((migration) => migration.version <= format),
  );
  db.prepare(
    "INSERT INTO transcripts (id, title, source_kind, source, region, status, options_json, created_at, updated_at) VALUES ('t1', ?, 'file', '/a.wav', 'us', 'completed', '{}', 1, 1)",
  ).run(title);
  const sentence = db.prepare(
    "INSERT INTO sentences (transcript_id, position, start_ms, end_ms, text) VALUES ('t1', ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (let position = 0; position < sentences; position++)
      sentence.run(
        position,
        position * 1000,
        position * 1000 + 900,
        `The harbour board met on day ${position}.`,
      );
  })();
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

/** The steps of upgrading a library of `format`: the backup, then each migration since, a step each. */
export function upgradeStepsFrom(format: number): number {
  return 1 + migrations.filter((migration) => migration.version > format).length;
}
