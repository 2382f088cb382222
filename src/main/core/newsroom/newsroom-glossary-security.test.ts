import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpSampleNewsroom, sqlAs } from './newsroom-archive.test-kit';
import { useNewsroomServer } from './newsroom-server.test-kit';

/**
 * Who sees and changes a newsroom glossary, enforced by PostgreSQL (issue #36, point 1): each
 * sample member logs in as their own role and runs hand-written SQL, not the app's. City has the
 * reporters ana and ben and the editor cleo; Politics has dev; olga is on no desk.
 */
const server = useNewsroomServer();
const city = randomUUID();
const everyone = randomUUID();
const proposal = randomUUID();

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  const ana = await sqlAs(server(), 'ana');
  try {
    await ana.query(
      "INSERT INTO verbatim.shared_glossaries (id, name, desk) VALUES ($1, 'City names', 'City')",
      [city],
    );
    await ana.query(
      "INSERT INTO verbatim.shared_glossaries (id, name, desk) VALUES ($1, 'House style', NULL)",
      [everyone],
    );
    for (const id of [city, everyone])
      await ana.query(
        `INSERT INTO verbatim.shared_glossary_entries (glossary_id, term_key, term, kind, revision, last_change)
         VALUES ($1, 'okonkwo', 'Okonkwo', 'person', 1, gen_random_uuid())`,
        [id],
      );
    await ana.query(
      "INSERT INTO verbatim.shared_glossary_proposals (id, glossary_id, term, kind) VALUES ($1, $2, 'Brennan', 'person')",
      [proposal, city],
    );
  } finally {
    await ana.end();
  }
});

/** Runs `sql` as `user` in a transaction rolled back after, so no attempt changes what the next one finds. */
async function attempt(
  user: string,
  sql: string,
  values: unknown[] = [],
): Promise<{ rows: number } | { refused: string }> {
  const client = await sqlAs(server(), user);
  try {
    await client.query('BEGIN');
    const result = await client.query(sql, values).catch((error: unknown) => ({ error }));
    await client.query('ROLLBACK');
    if ('error' in result) return { refused: (result.error as { code?: string }).code ?? 'unknown' };
    return { rows: result.rowCount ?? 0 };
  } finally {
    await client.end();
  }
}

const refusedOrNothing = (answer: { rows: number } | { refused: string }) =>
  'refused' in answer || answer.rows === 0;

/** Each is something its user must not do or see; PostgreSQL answers with an error or no rows. */
const attacks: { what: string; user: string; sql: string }[] = [
  {
    what: "Politics' reporter reads City's glossary",
    user: 'dev',
    sql: `SELECT * FROM verbatim.shared_glossaries WHERE id = '${city}'`,
  },
  {
    what: "Politics' reporter reads its entries",
    user: 'dev',
    sql: `SELECT * FROM verbatim.shared_glossary_entries WHERE glossary_id = '${city}'`,
  },
  {
    what: "Politics' reporter changes an entry",
    user: 'dev',
    sql: `UPDATE verbatim.shared_glossary_entries SET note = 'x', revision = revision + 1 WHERE glossary_id = '${city}'`,
  },
  {
    what: "Politics' reporter adds an entry",
    user: 'dev',
    sql: `INSERT INTO verbatim.shared_glossary_entries (glossary_id, term_key, term, kind, revision, last_change) VALUES ('${city}', 'x', 'X', 'term', 1, gen_random_uuid())`,
  },
  {
    what: "Politics' reporter proposes to City's glossary",
    user: 'dev',
    sql: `INSERT INTO verbatim.shared_glossary_proposals (id, glossary_id, term, kind) VALUES (gen_random_uuid(), '${city}', 'X', 'term')`,
  },
  {
    what: "Politics' reporter reads a proposal to City",
    user: 'dev',
    sql: `SELECT * FROM verbatim.shared_glossary_proposals`,
  },
  {
    what: 'a City reporter changes an entry of a colleague’s glossary',
    user: 'ben',
    sql: `UPDATE verbatim.shared_glossary_entries SET note = 'x' WHERE glossary_id = '${city}'`,
  },
  {
    what: 'a City reporter adds an entry to it',
    user: 'ben',
    sql: `INSERT INTO verbatim.shared_glossary_entries (glossary_id, term_key, term, kind, revision, last_change) VALUES ('${city}', 'x', 'X', 'term', 1, gen_random_uuid())`,
  },
  {
    what: "a City reporter reads a colleague's proposal",
    user: 'ben',
    sql: 'SELECT * FROM verbatim.shared_glossary_proposals',
  },
  {
    what: 'a City reporter accepts a proposal',
    user: 'ben',
    sql: `UPDATE verbatim.shared_glossary_proposals SET state = 'accepted' WHERE id = '${proposal}'`,
  },
  {
    what: 'a reporter shares a glossary with a desk they are not on',
    user: 'ana',
    sql: "INSERT INTO verbatim.shared_glossaries (id, name, desk) VALUES (gen_random_uuid(), 'x', 'Politics')",
  },
  {
    what: "someone on no desk changes the whole newsroom's glossary",
    user: 'olga',
    sql: `UPDATE verbatim.shared_glossary_entries SET note = 'x' WHERE glossary_id = '${everyone}'`,
  },
  {
    what: 'anyone deletes an entry instead of leaving a tombstone',
    user: 'ana',
    sql: 'DELETE FROM verbatim.shared_glossary_entries',
  },
];

async function visibleTo(user: string): Promise<string[]> {
  const client = await sqlAs(server(), user);
  try {
    const found = await client.query<{ name: string }>(
      'SELECT name FROM verbatim.shared_glossaries ORDER BY name',
    );
    return found.rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe('newsroom glossaries under row-level security, each member logged in as themselves', () => {
  it.each(attacks)('refused: $what', async ({ user, sql }) => {
    expect(await attempt(user, sql)).toSatisfy(refusedOrNothing);
  });

  it("a desk's glossary is its members'; the whole newsroom's is everyone's", async () => {
    expect(await visibleTo('ana')).toEqual(['City names', 'House style']);
    expect(await visibleTo('ben')).toEqual(['City names', 'House style']);
    expect(await visibleTo('cleo')).toEqual(['City names', 'House style']);
    expect(await visibleTo('dev')).toEqual(['House style']);
    expect(await visibleTo('olga')).toEqual(['House style']);
  });

  it('the desk editor changes entries and decides proposals; any editor changes the whole newsroom’s; a reporter proposes', async () => {
    expect(
      await attempt('cleo', `UPDATE verbatim.shared_glossary_entries SET note = 'x' WHERE glossary_id = $1`, [
        city,
      ]),
    ).toEqual({ rows: 1 });
    expect(
      await attempt(
        'cleo',
        `UPDATE verbatim.shared_glossary_proposals SET state = 'accepted' WHERE id = $1`,
        [proposal],
      ),
    ).toEqual({ rows: 1 });
    expect(
      await attempt('cleo', `UPDATE verbatim.shared_glossary_entries SET note = 'x' WHERE glossary_id = $1`, [
        everyone,
      ]),
    ).toEqual({ rows: 1 });
    expect(
      await attempt(
        'dev',
        `INSERT INTO verbatim.shared_glossary_proposals (id, glossary_id, term, kind) VALUES (gen_random_uuid(), $1, 'X', 'term')`,
        [everyone],
      ),
    ).toEqual({ rows: 1 });
  });

  it('with row-level security off, the reading attacks would succeed: the tests above test the policies', async () => {
    for (const { sql } of attacks.filter((each) => each.sql.startsWith('SELECT'))) {
      const found = await server().pool.query(sql);
      expect(found.rowCount).toBeGreaterThan(0);
    }
  });
});
