import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import {
  addDeskMember,
  createDesk,
  createNewsroomLogin,
  deskRoleName,
  newsroomIdentity,
} from './newsroom-desks';
import {
  checkNewsroomSchema,
  knownNewsroomSchemaVersion,
  migrateNewsroom,
  newsroomMigrations,
} from './newsroom-migrations';
import { useNewsroomServer } from './newsroom-server.test-kit';

const server = useNewsroomServer();

/** A fresh database on the test's server, and a function to connect to it as its owner. */
async function freshDatabase(name: string): Promise<() => Promise<pg.Client>> {
  const { pool, admin, adminPassword } = server();
  await pool.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  return async () => {
    const client = new pg.Client({ ...admin, database: name, password: adminPassword });
    await client.connect();
    return client;
  };
}

async function using<T>(
  connect: () => Promise<pg.Client>,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = await connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('newsroom migrations', () => {
  it('two migrations started at once on a fresh database both succeed, and each migration is applied once', async () => {
    const connect = await freshDatabase('concurrent');
    const outcomes = await Promise.all([
      using(connect, (client) => migrateNewsroom(client)),
      using(connect, (client) => migrateNewsroom(client)),
    ]);
    expect(outcomes.flatMap((outcome) => outcome.applied).sort()).toEqual(
      newsroomMigrations.map((migration) => migration.version),
    );
    expect(outcomes.map((outcome) => outcome.version)).toEqual([
      knownNewsroomSchemaVersion,
      knownNewsroomSchemaVersion,
    ]);
    const versions = await using(connect, (client) =>
      client.query<{ version: number }>('SELECT version FROM verbatim.schema_versions ORDER BY version'),
    );
    expect(versions.rows.map((row) => row.version)).toEqual(
      newsroomMigrations.map((migration) => migration.version),
    );
    expect(await using(connect, (client) => migrateNewsroom(client))).toEqual({
      applied: [],
      version: knownNewsroomSchemaVersion,
    });
  });

  it('a server whose schema is newer than this Verbatim knows is refused with a sentence that says to update Verbatim', async () => {
    const connect = await freshDatabase('newer');
    await using(connect, async (client) => {
      await migrateNewsroom(client);
      await client.query('INSERT INTO verbatim.schema_versions (version) VALUES ($1)', [
        knownNewsroomSchemaVersion + 1,
      ]);
      const newer = `The newsroom's archive was set up by a newer Verbatim (schema version ${knownNewsroomSchemaVersion + 1}; this one knows up to ${knownNewsroomSchemaVersion}): update Verbatim to use it.`;
      await expect(checkNewsroomSchema(client)).rejects.toThrow(newer);
      await expect(migrateNewsroom(client)).rejects.toThrow(newer);
    });
  });

  it('a server with no Verbatim schema is refused with a sentence that says to run newsroom migrate', async () => {
    const connect = await freshDatabase('empty');
    await using(connect, async (client) => {
      const refusal = await checkNewsroomSchema(client).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(VerbatimError);
      expect((refusal as VerbatimError).message).toBe(
        "This newsroom server has no Verbatim archive yet: ask your newsroom's administrator to run `newsroom migrate` on it.",
      );
    });
  });
});

describe('migration 001: desks and members', () => {
  it('makes a desk a role, membership a GRANT, and a member reads their desks and role', async () => {
    const connect = await freshDatabase('desks');
    await using(connect, async (client) => {
      await migrateNewsroom(client, newsroomMigrations.slice(0, 1));
      await createDesk(client, 'City');
      await createDesk(client, 'City');
      await createNewsroomLogin(client, 'ana', 'ana-secret');
      await addDeskMember(client, { desk: 'City', user: 'ana', role: 'reporter' });
      const role = await client.query<{ rolcanlogin: boolean; member: boolean }>(
        "SELECT rolcanlogin, pg_has_role('ana', rolname, 'MEMBER') AS member FROM pg_roles WHERE rolname = $1",
        [deskRoleName('City')],
      );
      expect(role.rows).toEqual([{ rolcanlogin: false, member: true }]);
      await expect(
        client.query("INSERT INTO verbatim.desk_members (desk, member, role) VALUES ('City', 'ana', 'boss')"),
      ).rejects.toMatchObject({ code: '23514' });
      await expect(addDeskMember(client, { desk: 'Sport', user: 'ana', role: 'reporter' })).rejects.toThrow(
        'There is no desk called Sport in this newsroom: create it first.',
      );
    });
    const { admin } = server();
    const ana = new pg.Client({ ...admin, database: 'desks', user: 'ana', password: 'ana-secret' });
    await ana.connect();
    try {
      expect(await newsroomIdentity(ana)).toEqual({
        user: 'ana',
        desks: [{ desk: 'City', role: 'reporter' }],
      });
      await expect(
        ana.query("INSERT INTO verbatim.desks (name, role_name) VALUES ('Mine', 'x')"),
      ).rejects.toMatchObject({ code: '42501' });
    } finally {
      await ana.end();
    }
  });

  it('quotes hostile desk and user names as names: the role is made with the name as given, and nothing else runs', async () => {
    const connect = await freshDatabase('hostile');
    const hostileDesk = 'City"; DROP TABLE verbatim.desks; --';
    const hostileUser = `eve"; DROP ROLE postgres; --`;
    await using(connect, async (client) => {
      await migrateNewsroom(client);
      await createDesk(client, hostileDesk);
      await createNewsroomLogin(client, hostileUser, "it's'; DROP TABLE verbatim.desk_members; --");
      await addDeskMember(client, { desk: hostileDesk, user: hostileUser, role: 'editor' });
      const member = await client.query<{ member: boolean }>(
        "SELECT pg_has_role($1, $2, 'MEMBER') AS member",
        [hostileUser, deskRoleName(hostileDesk)],
      );
      expect(member.rows).toEqual([{ member: true }]);
      for (const refused of ['', 'x'.repeat(51), 'é'.repeat(30), 'City\nDesk'])
        await expect(createDesk(client, refused)).rejects.toThrow(
          'The desk name must be 1 to 50 characters (58 bytes), without control characters.',
        );
      const desks = await client.query<{ name: string }>('SELECT name FROM verbatim.desks');
      expect(desks.rows).toEqual([{ name: hostileDesk }]);
    });
    const hostile = new pg.Client({
      ...server().admin,
      database: 'hostile',
      user: hostileUser,
      password: "it's'; DROP TABLE verbatim.desk_members; --",
    });
    await hostile.connect();
    try {
      expect(await newsroomIdentity(hostile)).toEqual({
        user: hostileUser,
        desks: [{ desk: hostileDesk, role: 'editor' }],
      });
    } finally {
      await hostile.end();
    }
  });
});

describe('migration 002: published transcripts', () => {
  it('keeps a transcript, its sentences searchable in any language as said (simple, prefixes), highlights and audio, all removed with it', async () => {
    const connect = await freshDatabase('published');
    await using(connect, async (client) => {
      await migrateNewsroom(client, newsroomMigrations.slice(0, 2));
      await createDesk(client, 'City');
      await client.query(
        `INSERT INTO verbatim.published_transcripts (reporter, transcript_id, desk, confidential, revision,
           title, recorded_at, redacted) VALUES ('ana', 't1', 'City', false, 1, 'Harbour', now(), false)`,
      );
      await client.query(
        `INSERT INTO verbatim.published_sentences (reporter, transcript_id, position, start_ms, end_ms, text)
         VALUES ('ana', 't1', 0, 0, 900, 'The harbours were closed'),
                ('ana', 't1', 1, 900, 1800, 'Die Häfen waren geschlossen')`,
      );
      await client.query(
        `INSERT INTO verbatim.published_highlights (reporter, transcript_id, ordinal, start_ms, end_ms, label, note, text)
         VALUES ('ana', 't1', 0, 0, 900, 'quote', '', 'The harbours were closed')`,
      );
      await client.query(
        `INSERT INTO verbatim.published_audio_chunks (reporter, transcript_id, revision, clip, chunk_index, bytes)
         VALUES ('ana', 't1', 1, 'recording', 0, '\\x00ff')`,
      );
      const search = await client.query<{ search: string }>(
        'SELECT search::text AS search FROM verbatim.published_sentences ORDER BY position',
      );
      // No stemming and no stop words: every word kept, lowercased, whatever its language.
      expect(search.rows.map((row) => row.search)).toEqual([
        "'closed':4 'harbours':2 'the':1 'were':3",
        "'die':1 'geschlossen':4 'häfen':2 'waren':3",
      ]);
      const prefix = await client.query<{ position: number }>(
        "SELECT position FROM verbatim.published_sentences WHERE search @@ to_tsquery('simple', 'häf:* | harb:*') ORDER BY position",
      );
      expect(prefix.rows).toEqual([{ position: 0 }, { position: 1 }]);
      const indexes = await client.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'published_sentences_search'",
      );
      expect(indexes.rows[0]?.indexdef).toContain('USING gin (search)');
      const settings = await client.query('SELECT max_audio_bytes FROM verbatim.archive_settings');
      expect(settings.rows).toEqual([{ max_audio_bytes: String(2 ** 31) }]);
      await client.query("DELETE FROM verbatim.published_transcripts WHERE transcript_id = 't1'");
      const left = await client.query<{ count: string }>(
        `SELECT (SELECT count(*) FROM verbatim.published_sentences) + (SELECT count(*) FROM verbatim.published_highlights)
              + (SELECT count(*) FROM verbatim.published_audio_chunks) AS count`,
      );
      expect(left.rows).toEqual([{ count: '0' }]);
    });
  });
});

describe('migration 003: row-level security on the archive', () => {
  it('enables and forces row-level security on every archive table, and grants reporters no table it does not cover', async () => {
    const connect = await freshDatabase('secured');
    await using(connect, async (client) => {
      await migrateNewsroom(client, newsroomMigrations.slice(0, 3));
      const tables = await client.query<{ relname: string; secured: boolean }>(
        `SELECT relname, relrowsecurity AND relforcerowsecurity AS secured FROM pg_class
         WHERE relnamespace = 'verbatim'::regnamespace AND relkind = 'r'
           AND relname NOT IN ('schema_versions', 'desks', 'desk_members') ORDER BY relname`,
      );
      expect(tables.rows).toEqual(
        [
          'archive_settings',
          'published_audio_chunks',
          'published_highlights',
          'published_sentences',
          'published_transcripts',
          'withdrawn_transcripts',
        ].map((relname) => ({ relname, secured: true })),
      );
      const settings = await client.query<{ insert: boolean; select: boolean }>(
        `SELECT has_table_privilege('public', 'verbatim.archive_settings', 'INSERT') AS insert,
                has_table_privilege('public', 'verbatim.archive_settings', 'SELECT') AS select`,
      );
      expect(settings.rows).toEqual([{ insert: false, select: true }]);
    });
  });
});

describe('migration 005: search at scale', () => {
  it("is refused to an owner that row-level security binds (search's function would find nothing), and keeps sentences' rows small", async () => {
    const connect = await freshDatabase('scaled');
    const { admin } = server();
    await using(connect, async (client) => {
      await migrateNewsroom(client, newsroomMigrations.slice(0, 4));
      await createNewsroomLogin(client, 'ordinary_owner', 'owner-password');
      await client.query('GRANT ALL ON DATABASE scaled TO ordinary_owner');
      await client.query('GRANT ALL ON SCHEMA verbatim TO ordinary_owner');
      await client.query('GRANT ALL ON ALL TABLES IN SCHEMA verbatim TO ordinary_owner');
    });
    const ordinary = new pg.Client({
      ...admin,
      database: 'scaled',
      user: 'ordinary_owner',
      password: 'owner-password',
    });
    await ordinary.connect();
    try {
      await expect(migrateNewsroom(ordinary)).rejects.toThrow(/bypasses row-level security/);
    } finally {
      await ordinary.end();
    }
    await using(connect, async (client) => {
      // The refused run changed nothing: the schema is still at 4.
      expect(await checkNewsroomSchema(client)).toBe(4);
      await migrateNewsroom(client, newsroomMigrations.slice(0, 5));
      const table = await client.query<{ options: string[] }>(
        "SELECT reloptions AS options FROM pg_class WHERE oid = 'verbatim.published_sentences'::regclass",
      );
      expect(table.rows[0]?.options).toContain('toast_tuple_target=512');
      const columns = await client.query<{ attname: string; attstorage: string }>(
        `SELECT attname, attstorage FROM pg_attribute
          WHERE attrelid = 'verbatim.published_sentences'::regclass AND attname IN ('search', 'words') ORDER BY attname`,
      );
      expect(columns.rows).toEqual([
        { attname: 'search', attstorage: 'm' },
        { attname: 'words', attstorage: 'x' },
      ]);
      const search = await client.query<{ definer: boolean; config: string[] }>(
        "SELECT prosecdef AS definer, proconfig AS config FROM pg_proc WHERE oid = 'verbatim.visible_matches'::regproc",
      );
      expect(search.rows).toEqual([{ definer: true, config: ['search_path=pg_catalog, pg_temp'] }]);
    });
  });
});

describe("migration 006: search plans a desk filter on the desk's own index", () => {
  it("plans search's function, and only it, as for data on solid-state storage or in memory", async () => {
    const connect = await freshDatabase('planned');
    await using(connect, async (client) => {
      await migrateNewsroom(client, newsroomMigrations.slice(0, 5));
      const before = await client.query<{ random_page_cost: string }>('SHOW random_page_cost');
      await migrateNewsroom(
        client,
        newsroomMigrations.filter((migration) => migration.version <= 6),
      );
      expect(await checkNewsroomSchema(client)).toBe(6);
      const search = await client.query<{ definer: boolean; config: string[] }>(
        "SELECT prosecdef AS definer, proconfig AS config FROM pg_proc WHERE oid = 'verbatim.visible_matches'::regproc",
      );
      expect(search.rows).toEqual([
        { definer: true, config: ['search_path=pg_catalog, pg_temp', 'random_page_cost=1.1'] },
      ]);
      // The server's own setting is left as the administrator set it.
      const after = await client.query<{ random_page_cost: string }>('SHOW random_page_cost');
      expect(after.rows[0]?.random_page_cost).toBe(before.rows[0]?.random_page_cost);
    });
  });
});

describe('migration 007: shared glossaries', () => {
  it('secures its three tables, stamps who did what whatever is sent, keeps removals as tombstones and notifies only the kind', async () => {
    const connect = await freshDatabase('glossaries');
    await using(connect, async (client) => {
      await migrateNewsroom(
        client,
        newsroomMigrations.filter((migration) => migration.version <= 6),
      );
      await migrateNewsroom(
        client,
        newsroomMigrations.filter((migration) => migration.version <= 7),
      );
      expect(await checkNewsroomSchema(client)).toBe(7);
      const tables = await client.query<{ relname: string; secured: boolean }>(
        `SELECT relname, relrowsecurity AND relforcerowsecurity AS secured FROM pg_class
         WHERE relnamespace = 'verbatim'::regnamespace AND relkind = 'r' AND relname LIKE 'shared_glossar%'
         ORDER BY relname`,
      );
      expect(tables.rows).toEqual(
        ['shared_glossaries', 'shared_glossary_entries', 'shared_glossary_proposals'].map((relname) => ({
          relname,
          secured: true,
        })),
      );
      const deletable = await client.query<{ entries: boolean }>(
        "SELECT has_table_privilege('public', 'verbatim.shared_glossary_entries', 'DELETE') AS entries",
      );
      expect(deletable.rows).toEqual([{ entries: false }]);
      await createDesk(client, 'City');
      await createNewsroomLogin(client, 'ana', 'ana-password');
      await addDeskMember(client, { desk: 'City', user: 'ana', role: 'reporter' });
    });
    const { admin } = server();
    const ana = new pg.Client({ ...admin, database: 'glossaries', user: 'ana', password: 'ana-password' });
    await ana.connect();
    const heard: (string | undefined)[] = [];
    const listener = await connect();
    try {
      await listener.query('LISTEN verbatim_collaboration');
      listener.on('notification', (message) => heard.push(message.payload));
      const id = '6f1c2a4e-0000-4000-8000-000000000001';
      // Forged names are replaced by the login: who did what is never a value sent.
      await ana.query(
        "INSERT INTO verbatim.shared_glossaries (id, name, owner, desk) VALUES ($1, 'City names', 'cleo', 'City')",
        [id],
      );
      await ana.query(
        `INSERT INTO verbatim.shared_glossary_entries (glossary_id, term_key, term, kind, revision, last_change, changed_by)
         VALUES ($1, 'okonkwo', 'Okonkwo', 'person', 1, gen_random_uuid(), 'cleo')`,
        [id],
      );
      await ana.query(
        `INSERT INTO verbatim.shared_glossary_proposals (id, glossary_id, term, kind, proposed_by, state, decided_by)
         VALUES (gen_random_uuid(), $1, 'Brennan', 'person', 'cleo', 'accepted', 'cleo')`,
        [id],
      );
      const stamped = await ana.query<{
        owner: string;
        changed_by: string;
        proposed_by: string;
        state: string;
        decided_by: string | null;
      }>(
        `SELECT g.owner, e.changed_by, p.proposed_by, p.state, p.decided_by FROM verbatim.shared_glossaries g
         JOIN verbatim.shared_glossary_entries e ON e.glossary_id = g.id JOIN verbatim.shared_glossary_proposals p ON p.glossary_id = g.id`,
      );
      expect(stamped.rows).toEqual([
        { owner: 'ana', changed_by: 'ana', proposed_by: 'ana', state: 'open', decided_by: null },
      ]);
      await expect(ana.query('DELETE FROM verbatim.shared_glossary_entries')).rejects.toMatchObject({
        code: '42501',
      });
      await expect(
        ana.query(
          "INSERT INTO verbatim.shared_glossary_entries (glossary_id, term_key, term, kind, revision, last_change) VALUES ($1, 'x', 'x', 'animal', 1, gen_random_uuid())",
          [id],
        ),
      ).rejects.toMatchObject({ code: '23514' });
      await vi.waitFor(() => expect(heard).toEqual(['glossary', 'glossary', 'glossary']));
    } finally {
      await ana.end();
      await listener.end();
    }
  });
});

describe('migration 009: review stamps a copy can place, and who checked them', () => {
  it("keeps the published paragraphs' spans, and says the stamps stored before are the publishing reporter's", async () => {
    const connect = await freshDatabase('stamps');
    await using(connect, async (client) => {
      await migrateNewsroom(
        client,
        newsroomMigrations.filter((migration) => migration.version <= 6),
      );
      await createDesk(client, 'City');
      await client.query(
        `INSERT INTO verbatim.published_transcripts (reporter, transcript_id, desk, confidential, revision,
           title, recorded_at, redacted, checked_paragraphs)
         VALUES ('ana', 'stamped', 'City', false, 1, 'Harbour', now(), false,
                 '[{"paragraph": 0, "checkedAt": 5}, {"paragraph": 2, "checkedAt": 7}]'),
                ('ben', 'unstamped', 'City', false, 1, 'Ferry', now(), false, '[]')`,
      );
      await migrateNewsroom(client);
      const rows = await client.query<{ reporter: string; checked_paragraphs: unknown; paragraphs: unknown }>(
        'SELECT reporter, checked_paragraphs, paragraphs FROM verbatim.published_transcripts ORDER BY reporter',
      );
      expect(rows.rows).toEqual([
        {
          reporter: 'ana',
          checked_paragraphs: [
            { paragraph: 0, checkedAt: 5, checkedBy: 'ana' },
            { paragraph: 2, checkedAt: 7, checkedBy: 'ana' },
          ],
          // Published before the spans travelled: a copy cannot place these stamps.
          paragraphs: null,
        },
        { reporter: 'ben', checked_paragraphs: [], paragraphs: null },
      ]);
    });
  });
});

describe('migration 008: shared stories an editor reviews', () => {
  it('secures its four tables, renews change_xid on update, notifies the collaboration channel with the kind only, and lets comments change only their resolve', async () => {
    const connect = await freshDatabase('shared_stories');
    await using(connect, async (client) => {
      await migrateNewsroom(
        client,
        newsroomMigrations.filter((migration) => migration.version <= 8),
      );
      const tables = await client.query<{ relname: string; secured: boolean }>(
        `SELECT relname, relrowsecurity AND relforcerowsecurity AS secured FROM pg_class
         WHERE relnamespace = 'verbatim'::regnamespace AND relkind = 'r'
           AND relname IN ('shared_stories', 'shared_story_clips', 'story_comments', 'story_approvals')
         ORDER BY relname`,
      );
      expect(tables.rows).toEqual(
        ['shared_stories', 'shared_story_clips', 'story_approvals', 'story_comments'].map((relname) => ({
          relname,
          secured: true,
        })),
      );
      const privileges = await client.query<{ body: boolean; resolved: boolean; delete: boolean }>(
        `SELECT has_column_privilege('public', 'verbatim.story_comments', 'body', 'UPDATE') AS body,
                has_column_privilege('public', 'verbatim.story_comments', 'resolved_at', 'UPDATE') AS resolved,
                has_table_privilege('public', 'verbatim.story_comments', 'DELETE') AS delete`,
      );
      expect(privileges.rows).toEqual([{ body: false, resolved: true, delete: false }]);

      await createDesk(client, 'City');
      await client.query('LISTEN verbatim_collaboration');
      const heard: (string | undefined)[] = [];
      client.on('notification', (message) => heard.push(message.payload));
      await client.query(
        `INSERT INTO verbatim.shared_stories (reporter, story_id, desk, title, revision, items)
         VALUES ('someone', '3', 'City', 'Ferry', 1, '[]')`,
      );
      const before = await client.query<{ xid: string }>(
        `SELECT change_xid::text AS xid FROM verbatim.shared_stories`,
      );
      await client.query(`UPDATE verbatim.shared_stories SET revision = 2`);
      const after = await client.query<{ xid: string }>(
        `SELECT change_xid::text AS xid FROM verbatim.shared_stories`,
      );
      expect(BigInt(after.rows[0]!.xid)).toBeGreaterThan(BigInt(before.rows[0]!.xid));
      await expect(
        client.query(`INSERT INTO verbatim.story_comments (id, reporter, story_id, anchor, kind, body)
          VALUES (gen_random_uuid(), 'someone', '3', '{"kind":"elsewhere"}', 'comment', 'x')`),
      ).rejects.toThrow(/check constraint/);
      await new Promise((done) => setTimeout(done, 50));
      expect(heard.length).toBeGreaterThanOrEqual(2);
      expect(new Set(heard)).toEqual(new Set(['story']));
    });
  });
});
