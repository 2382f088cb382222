import { beforeAll, describe, expect, it } from 'vitest';
import { NewsroomArchive } from './newsroom-archive';
import { connectionAs, samplePublication, setUpSampleNewsroom, sqlAs } from './newsroom-archive.test-kit';
import { useNewsroomServer } from './newsroom-server.test-kit';

/**
 * Who sees and changes what, enforced by PostgreSQL (issue #35, point 8): each sample member
 * logs in as their own role and runs hand-written SQL, not the app's. City has the reporters ana
 * and ben and the editor cleo; Politics has dev; olga is on no desk.
 */
const server = useNewsroomServer();

const archiveTables = [
  'published_transcripts',
  'published_sentences',
  'published_highlights',
  'published_audio_chunks',
  'withdrawn_transcripts',
];

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  for (const [user, publications] of [
    [
      'ana',
      [
        samplePublication('city-open', 1),
        samplePublication('city-secret', 1, { confidential: true, title: 'The source' }),
      ],
    ],
    ['dev', [samplePublication('politics-open', 1, { desk: 'Politics' })]],
  ] as const) {
    const connection = connectionAs(server(), user);
    try {
      const archive = new NewsroomArchive(connection);
      for (const publication of publications) await archive.apply({ kind: 'publish', publication });
      if (user === 'ana')
        for (const clip of ['recording', { highlight: 0 }] as const)
          await archive.putAudioChunk({
            transcriptId: 'city-secret',
            revision: 1,
            clip,
            chunkIndex: 0,
            bytes: Buffer.from('the source speaking'),
          });
    } finally {
      await connection.close();
    }
  }
});

/** Runs `sql` as `user` in a transaction rolled back after, so no attempt changes what the next one finds. */
async function attempt(user: string, sql: string): Promise<{ rows: number } | { refused: string }> {
  const client = await sqlAs(server(), user);
  try {
    await client.query('BEGIN');
    const result = await client.query(sql).catch((error: unknown) => ({ error }));
    await client.query('ROLLBACK');
    if ('error' in result) return { refused: (result.error as { code?: string }).code ?? 'unknown' };
    return { rows: result.rowCount ?? 0 };
  } finally {
    await client.end();
  }
}

const newRow = (reporter: string, id: string, desk: string) =>
  `INSERT INTO verbatim.published_transcripts (reporter, transcript_id, desk, confidential, revision, title, recorded_at, redacted)
   VALUES ('${reporter}', '${id}', '${desk}', false, 1, 'forged', now(), false)`;

/** Each is something its user must not do or see; PostgreSQL answers with an error or no rows. */
const attacks: { what: string; user: string; sql: string }[] = [
  {
    what: "a City reporter selects Politics' transcript",
    user: 'ben',
    sql: "SELECT * FROM verbatim.published_transcripts WHERE transcript_id = 'politics-open'",
  },
  {
    what: 'someone on no desk selects a City transcript',
    user: 'olga',
    sql: "SELECT * FROM verbatim.published_transcripts WHERE transcript_id = 'city-open'",
  },
  {
    what: "a reporter of the same desk reads another reporter's confidential transcript",
    user: 'ben',
    sql: "SELECT * FROM verbatim.published_transcripts WHERE transcript_id = 'city-secret'",
  },
  {
    what: "a reporter of the same desk reads a confidential transcript's sentences",
    user: 'ben',
    sql: "SELECT text FROM verbatim.published_sentences WHERE transcript_id = 'city-secret'",
  },
  {
    what: "a reporter of the same desk reads a confidential transcript's highlights",
    user: 'ben',
    sql: "SELECT text FROM verbatim.published_highlights WHERE transcript_id = 'city-secret'",
  },
  {
    what: "a reporter of the same desk reads a confidential transcript's audio",
    user: 'ben',
    sql: "SELECT bytes FROM verbatim.published_audio_chunks WHERE transcript_id = 'city-secret'",
  },
  {
    what: "a Politics reporter reads a City transcript's sentences",
    user: 'dev',
    sql: "SELECT text FROM verbatim.published_sentences WHERE transcript_id = 'city-open'",
  },
  {
    what: "a reporter changes a colleague's transcript",
    user: 'ben',
    sql: "UPDATE verbatim.published_transcripts SET title = 'changed' WHERE transcript_id = 'city-open'",
  },
  {
    what: "an editor changes a reporter's transcript",
    user: 'cleo',
    sql: "UPDATE verbatim.published_transcripts SET confidential = false WHERE transcript_id = 'city-secret'",
  },
  {
    what: "a reporter deletes (unpublishes) a colleague's transcript",
    user: 'ben',
    sql: "DELETE FROM verbatim.published_transcripts WHERE transcript_id = 'city-open'",
  },
  {
    what: "a reporter deletes a colleague's sentences",
    user: 'ben',
    sql: "DELETE FROM verbatim.published_sentences WHERE transcript_id = 'city-open'",
  },
  {
    what: "a reporter adds a sentence to a colleague's transcript",
    user: 'ben',
    sql: `INSERT INTO verbatim.published_sentences (reporter, transcript_id, position, start_ms, end_ms, text)
          VALUES ('ana', 'city-open', 99, 0, 1, 'words she never said')`,
  },
  {
    what: 'a reporter publishes under a forged reporter',
    user: 'ben',
    sql: newRow('ana', 'forged', 'City'),
  },
  {
    what: 'a reporter publishes to a desk they are not on',
    user: 'ana',
    sql: newRow('ana', 'not-my-desk', 'Politics'),
  },
  {
    what: 'a reporter moves their transcript to a desk they are not on',
    user: 'ana',
    sql: "UPDATE verbatim.published_transcripts SET desk = 'Politics' WHERE transcript_id = 'city-open'",
  },
  {
    what: "a reporter withdraws a colleague's transcript ahead of time",
    user: 'ben',
    sql: "INSERT INTO verbatim.withdrawn_transcripts (reporter, transcript_id, revision) VALUES ('ana', 'city-open', 99)",
  },
];

async function visibleTo(user: string): Promise<string[]> {
  const client = await sqlAs(server(), user);
  try {
    const found = await client.query<{ transcript_id: string }>(
      'SELECT transcript_id FROM verbatim.published_transcripts ORDER BY transcript_id',
    );
    return found.rows.map((row) => row.transcript_id);
  } finally {
    await client.end();
  }
}

describe('the archive under row-level security, each member logged in as themselves', () => {
  it.each(attacks)('refused: $what', async ({ user, sql }) => {
    const outcome = await attempt(user, sql);
    expect(outcome).toSatisfy(
      (answer: { rows: number } | { refused: string }) => 'refused' in answer || answer.rows === 0,
    );
  });

  it("each member sees their desk's transcripts; a confidential one only its reporter and the desk's editor", async () => {
    expect(await visibleTo('ana')).toEqual(['city-open', 'city-secret']);
    expect(await visibleTo('ben')).toEqual(['city-open']);
    expect(await visibleTo('cleo')).toEqual(['city-open', 'city-secret']);
    expect(await visibleTo('dev')).toEqual(['politics-open']);
    expect(await visibleTo('olga')).toEqual([]);
  });

  it("the desk's editor reads a confidential transcript's sentences, highlights and audio; its reporter changes and deletes it", async () => {
    for (const table of ['published_sentences', 'published_highlights', 'published_audio_chunks'])
      expect(
        await attempt('cleo', `SELECT * FROM verbatim.${table} WHERE transcript_id = 'city-secret'`),
      ).toEqual({ rows: table === 'published_audio_chunks' ? 2 : table === 'published_sentences' ? 2 : 1 });
    expect(
      await attempt(
        'ana',
        "UPDATE verbatim.published_transcripts SET title = 'Renamed' WHERE transcript_id = 'city-secret'",
      ),
    ).toEqual({ rows: 1 });
    expect(
      await attempt('ana', "DELETE FROM verbatim.published_transcripts WHERE transcript_id = 'city-secret'"),
    ).toEqual({ rows: 1 });
    expect(await attempt('ben', newRow('ben', 'mine', 'City'))).toEqual({ rows: 1 });
  });

  it('with row-level security off, every one of those attempts would succeed: the tests above test the policies', async () => {
    const { pool } = server();
    for (const table of archiveTables)
      await pool.query(`ALTER TABLE verbatim.${table} DISABLE ROW LEVEL SECURITY`);
    try {
      for (const { what, user, sql } of attacks) {
        const outcome = await attempt(user, sql);
        expect({ what, succeeded: 'rows' in outcome && outcome.rows > 0 }).toEqual({ what, succeeded: true });
      }
      expect(await visibleTo('olga')).toEqual(['city-open', 'city-secret', 'politics-open']);
    } finally {
      for (const table of archiveTables)
        await pool.query(`ALTER TABLE verbatim.${table} ENABLE ROW LEVEL SECURITY`);
    }
  });
});

/** What `user` finds through search's function (migration 005), called by hand with `sql`'s arguments. */
async function matchesTo(user: string, call: string): Promise<{ rows: string[] } | { refused: string }> {
  const client = await sqlAs(server(), user);
  try {
    const found = await client.query<{ transcript_id: string; position: number }>(call);
    return { rows: found.rows.map((row) => `${row.transcript_id}#${row.position}`).sort() };
  } catch (error) {
    return { refused: (error as { code?: string }).code ?? 'unknown' };
  } finally {
    await client.end();
  }
}

/** The same sentences as row-level security shows them to `user`. */
async function sentencesVisibleTo(user: string): Promise<string[]> {
  const client = await sqlAs(server(), user);
  try {
    const found = await client.query<{ transcript_id: string; position: number }>(
      "SELECT transcript_id, position FROM verbatim.published_sentences WHERE search @@ to_tsquery('simple', 'harbour')",
    );
    return found.rows.map((row) => `${row.transcript_id}#${row.position}`).sort();
  } finally {
    await client.end();
  }
}

const everyMatch = (tsquery: string, extra = 'NULL, NULL, NULL, NULL, NULL, NULL') =>
  `SELECT * FROM verbatim.visible_matches(to_tsquery('simple', '${tsquery}'), ${extra}, 10000)`;

describe("search's function (it reads past row-level security to use the index)", () => {
  it('finds for each member exactly the sentences row-level security shows them', async () => {
    for (const user of ['ana', 'ben', 'cleo', 'dev', 'olga']) {
      const visible = await sentencesVisibleTo(user);
      expect({ user, found: await matchesTo(user, everyMatch('harbour')) }).toEqual({
        user,
        found: { rows: visible },
      });
    }
    expect(await sentencesVisibleTo('ben')).not.toContainEqual(expect.stringMatching(/^city-secret/));
    expect(await sentencesVisibleTo('olga')).toEqual([]);
    expect(await sentencesVisibleTo('cleo')).toContainEqual(expect.stringMatching(/^city-secret/));
  });

  it('cannot be asked for another member’s view: a desk, reporter or tag filter only narrows what the caller may see', async () => {
    // Filters naming the confidential transcript's desk and reporter still leave it out for ben.
    expect(await matchesTo('ben', everyMatch('harbour', "'City', 'ana', NULL, NULL, NULL, NULL"))).toEqual({
      rows: (await sentencesVisibleTo('ben')).filter((key) => key.startsWith('city-open')),
    });
    expect(
      await matchesTo('olga', everyMatch('harbour', "'Politics', 'dev', NULL, NULL, NULL, NULL")),
    ).toEqual({ rows: [] });
    // Becoming the desk's role (SET ROLE) does not make its confidential transcripts visible.
    const client = await sqlAs(server(), 'ben');
    try {
      await client.query('SET ROLE "desk City"');
      const found = await client.query(everyMatch('harbour'));
      expect(found.rows.map((row: { transcript_id: string }) => row.transcript_id)).not.toContain(
        'city-secret',
      );
    } finally {
      await client.end();
    }
  });

  it('a search_path of the caller’s cannot change what it calls', async () => {
    const client = await sqlAs(server(), 'olga');
    try {
      await client.query('SET search_path = pg_temp, verbatim, public');
      const found = await client.query(everyMatch('harbour'));
      expect(found.rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });
});
