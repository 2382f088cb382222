import type pg from 'pg';
import { VerbatimError } from '../../../shared/errors';
import * as desksAndMembers from './migrations/001-desks-and-members';
import * as publishedTranscripts from './migrations/002-published-transcripts';
import * as archiveRowSecurity from './migrations/003-archive-row-security';
import * as searchAndNotify from './migrations/004-search-and-notify';
import * as searchAtScale from './migrations/005-search-at-scale';
import * as searchPlans from './migrations/006-search-plans';
import * as sharedGlossaries from './migrations/007-shared-glossaries';
import * as sharedStories from './migrations/008-shared-stories';
import * as checkStamps from './migrations/009-check-stamps';

/**
 * The newsroom's server schema, as numbered migrations an administrator runs (issue #35,
 * point 3): `newsroom migrate` applies those not yet applied, in order, each in its own
 * transaction, under a PostgreSQL advisory lock so two administrators (or two app starts)
 * running it at once apply each migration once. Like the library's, each migration is a
 * TypeScript module holding its SQL, so the bundled app carries it with no file to find.
 */
export const newsroomMigrations: readonly { version: number; sql: string }[] = [
  { version: 1, sql: desksAndMembers.sql },
  { version: 2, sql: publishedTranscripts.sql },
  { version: 3, sql: archiveRowSecurity.sql },
  { version: 4, sql: searchAndNotify.sql },
  { version: 5, sql: searchAtScale.sql },
  { version: 6, sql: searchPlans.sql },
  { version: 7, sql: sharedGlossaries.sql },
  { version: 8, sql: sharedStories.sql },
  { version: 9, sql: checkStamps.sql },
];

/** The schema version this Verbatim knows: a server at a higher one is refused. */
export const knownNewsroomSchemaVersion = newsroomMigrations.at(-1)?.version ?? 0;

/** The advisory lock's key: "verbatim" as a number, one key for every migrating session of a database. */
const migrationLockKey = 0x76657262;

/** The schema version of the newsroom on `client`'s database: 0 when it has no Verbatim schema. */
export async function newsroomSchemaVersion(client: pg.ClientBase): Promise<number> {
  const table = await client.query<{ found: string | null }>(
    "SELECT to_regclass('verbatim.schema_versions')::text AS found",
  );
  if (table.rows[0]?.found == null) return 0;
  const latest = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM verbatim.schema_versions',
  );
  return latest.rows[0]?.version ?? 0;
}

/** The refusal of a server whose schema is newer than this Verbatim knows. */
export function newerSchemaError(version: number): VerbatimError {
  // Not a mistake in the command (exit 2): this Verbatim is too old for the server.
  return new VerbatimError(
    'service',
    `The newsroom's archive was set up by a newer Verbatim (schema version ${version}; this one knows up to ${knownNewsroomSchemaVersion}): update Verbatim to use it.`,
  );
}

/**
 * The newsroom's schema version on `client`, checked: a server with no Verbatim schema, or a
 * newer one than this Verbatim knows, is refused in words.
 */
export async function checkNewsroomSchema(client: pg.ClientBase): Promise<number> {
  const version = await newsroomSchemaVersion(client);
  if (version === 0)
    throw new VerbatimError(
      'not_found',
      "This newsroom server has no Verbatim archive yet: ask your newsroom's administrator to run `newsroom migrate` on it.",
    );
  if (version > knownNewsroomSchemaVersion) throw newerSchemaError(version);
  return version;
}

/** What `migrateNewsroom` did: the versions it applied now, and the version the schema is at. */
export interface NewsroomMigration {
  applied: number[];
  version: number;
}

/**
 * Applies the migrations not yet applied, as the owner of the database (an administrator).
 * Waits for another migration running at the same time, then finds its work done.
 */
export async function migrateNewsroom(
  client: pg.ClientBase,
  migrations: readonly { version: number; sql: string }[] = newsroomMigrations,
): Promise<NewsroomMigration> {
  await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
  try {
    await client.query('CREATE SCHEMA IF NOT EXISTS verbatim');
    await client.query(`CREATE TABLE IF NOT EXISTS verbatim.schema_versions (
      version    integer PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    await client.query('GRANT USAGE ON SCHEMA verbatim TO PUBLIC');
    await client.query('GRANT SELECT ON verbatim.schema_versions TO PUBLIC');
    const current = await newsroomSchemaVersion(client);
    const latest = migrations.at(-1)?.version ?? 0;
    if (current > latest) throw newerSchemaError(current);
    const applied: number[] = [];
    for (const migration of migrations.filter((each) => each.version > current)) {
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO verbatim.schema_versions (version) VALUES ($1)', [migration.version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(migration.version);
    }
    return { applied, version: Math.max(current, latest) };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
  }
}
