import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrate, schemaVersion } from '../database';
import { migrations } from './index';
import { facetQuery, newSentenceFacetsSql } from '../search-facets';

/** One test per migration: each is applied on top of the previous ones, with data present. */
function at(version: number): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    migrations.filter((m) => m.version <= version),
  );
  return db;
}

function columns(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

describe('migration 1: transcripts, tags, speakers', () => {
  it('creates the tables with their constraints', () => {
    const db = at(1);
    expect(schemaVersion(db)).toBe(1);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'queued', 1, 1)",
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t2', 'x', 'file', '/b.wav', 'weird', 1, 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
    db.prepare("INSERT INTO transcript_tags VALUES ('t1', 'Ferry')").run();
    expect(() => db.prepare("INSERT INTO transcript_tags VALUES ('t1', 'ferry')").run()).toThrow(/UNIQUE/); // tags ignore case
    db.prepare("INSERT INTO speakers VALUES ('t1', 'A', 'Mayor Ortiz')").run();
    db.prepare("DELETE FROM transcripts WHERE id = 't1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM speakers').get()).toEqual({ n: 0 });
  });
});

describe('migration 2: sentences, paragraphs and the full-text index', () => {
  it('keeps the index in step with sentences through triggers', () => {
    const db = at(1);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 2),
    );
    expect(schemaVersion(db)).toBe(2);
    const insert = db.prepare(
      "INSERT INTO sentences (transcript_id, position, start_ms, end_ms, text) VALUES ('t1', ?, 0, 1, ?)",
    );
    insert.run(0, 'The ferry contract was signed');
    insert.run(1, 'Nobody asked the harbour board');
    const find = (q: string) =>
      db.prepare('SELECT rowid FROM sentences_fts WHERE sentences_fts MATCH ?').all(q).length;
    expect(find('ferry')).toBe(1);
    db.prepare("UPDATE sentences SET text = 'The bridge contract was signed' WHERE position = 0").run();
    expect(find('ferry')).toBe(0);
    expect(find('bridge')).toBe(1);
    db.prepare("DELETE FROM transcripts WHERE id = 't1'").run();
    expect(find('bridge')).toBe(0);
    expect(find('harbour')).toBe(0);
    expect(columns(db, 'paragraphs')).toEqual(columns(db, 'sentences'));
  });
});

describe('migration 3: scheduler state', () => {
  it('adds resumable job columns and keeps existing rows', () => {
    const db = at(2);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'processing', 1, 1)",
    ).run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 3),
    );
    expect(schemaVersion(db)).toBe(3);
    expect(columns(db, 'transcripts')).toEqual(
      expect.arrayContaining(['upload_url', 'next_check_at', 'checks', 'bytes_total', 'bytes_sent']),
    );
    expect(db.prepare("SELECT checks, bytes_sent FROM transcripts WHERE id = 't1'").get()).toEqual({
      checks: 0,
      bytes_sent: 0,
    });
  });
});

describe('migration 4: the offline model catalog', () => {
  it('adds the catalog tables beside the library and keeps existing rows', () => {
    const db = at(3);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 4),
    );
    expect(schemaVersion(db)).toBe(4);
    expect(db.prepare('SELECT count(*) AS n FROM transcripts').get()).toEqual({ n: 1 });
    expect(columns(db, 'catalog_models')).toEqual(['host', 'id', 'position', 'json']);
    expect(columns(db, 'catalog_endpoints')).toEqual(['host', 'model_id', 'fetched_at', 'json']);
    const snapshot = db.prepare('INSERT INTO catalog_snapshots VALUES (?, ?, 1, NULL)');
    snapshot.run('https://eu.example/api/v1', 'models');
    snapshot.run('https://us.example/api/v1', 'models');
    expect(() => snapshot.run('https://us.example/api/v1', 'models')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => snapshot.run('https://us.example/api/v1', 'weather')).toThrow(/CHECK/);
    expect(() =>
      db.prepare("INSERT INTO catalog_presets VALUES ('h', 'fact-check', 0, 1, '{}')").run(),
    ).toThrow(/CHECK/);
  });
});

describe('migration 5: Ask conversations', () => {
  it('keeps entries per transcript in order and drops them with their transcript', () => {
    const db = at(4);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 5),
    );
    expect(schemaVersion(db)).toBe(5);
    const insert = db.prepare(
      "INSERT INTO ask_entries (transcript_id, kind, created_at, entry_json) VALUES ('t1', ?, 1, ?)",
    );
    insert.run('question', '{"n": 1}');
    insert.run('answer', '{"n": 2}');
    expect(() => insert.run('musing', '{}')).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO ask_entries (transcript_id, kind, created_at, entry_json) VALUES ('nope', 'question', 1, '{}')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    expect(
      db.prepare("SELECT entry_json FROM ask_entries WHERE transcript_id = 't1' ORDER BY id").all(),
    ).toEqual([{ entry_json: '{"n": 1}' }, { entry_json: '{"n": 2}' }]);
    db.prepare("DELETE FROM transcripts WHERE id = 't1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM ask_entries').get()).toEqual({ n: 0 });
  });
});

describe('migration 6: voice assistant conversations and their full-text index', () => {
  it('keeps turns searchable through triggers and deletes them with their conversation', () => {
    const db = at(6);
    expect(schemaVersion(db)).toBe(6);
    db.prepare("INSERT INTO voice_conversations (id, started_at) VALUES ('c1', 1)").run();
    const insert = db.prepare(
      "INSERT INTO voice_turns (conversation_id, position, role, text, at) VALUES ('c1', ?, ?, ?, 1)",
    );
    insert.run(0, 'user', 'What did the mayor say about the ferry?');
    insert.run(1, 'agent', 'She said the contract was signed in March.');
    const find = (q: string) =>
      db.prepare('SELECT rowid FROM voice_turns_fts WHERE voice_turns_fts MATCH ?').all(q).length;
    expect(find('ferry')).toBe(1);
    expect(find('contract')).toBe(1);
    db.prepare("UPDATE voice_turns SET text = 'Nothing about boats' WHERE position = 1").run();
    expect(find('contract')).toBe(0);
    expect(find('boats')).toBe(1);
    expect(() => insert.run(2, 'narrator', 'x')).toThrow(/CHECK/);
    db.prepare("DELETE FROM voice_conversations WHERE id = 'c1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM voice_turns').get()).toEqual({ n: 0 });
    expect(find('ferry')).toBe(0);
  });
});

describe('migration 7: corrections beside the service words', () => {
  it('upgrades a library with transcripts in place and cascades every correction on delete', () => {
    const db = at(6);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO sentences (transcript_id, position, start_ms, end_ms, text) VALUES ('t1', 0, 0, 1, 'Mayor Brenan spoke')",
    ).run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 7),
    );
    expect(schemaVersion(db)).toBe(7);
    // Existing transcripts start at revision 0 with nothing corrected.
    expect(db.prepare("SELECT corrections_revision AS r FROM transcripts WHERE id = 't1'").get()).toEqual({
      r: 0,
    });
    expect(columns(db, 'transcript_edits')).toEqual([
      'id',
      'transcript_id',
      'kind',
      'summary',
      'steps_json',
      'created_at',
      'undone_at',
    ]);
    db.prepare(
      "INSERT INTO machine_sentences (transcript_id, position, start_ms, end_ms, text) VALUES ('t1', 0, 0, 1, 'Mayor Brenan spoke')",
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO machine_sentences (transcript_id, position, start_ms, end_ms, text) VALUES ('t1', 0, 0, 1, 'twice')",
        )
        .run(),
    ).toThrow(/UNIQUE|PRIMARY/);
    db.prepare(
      "INSERT INTO transcript_edits (transcript_id, kind, summary, steps_json, created_at) VALUES ('t1', 'text', 'Changed', '[]', 2)",
    ).run();
    db.prepare("INSERT INTO paragraph_checks VALUES ('t1', 0, 3)").run();
    db.prepare("DELETE FROM transcripts WHERE id = 't1'").run();
    for (const table of ['machine_sentences', 'transcript_edits', 'paragraph_checks'])
      expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
  });
});

describe('migration 8: highlights, labels and stories', () => {
  it('seeds the labels, indexes highlighted words and notes by trigger, and cascades or unlinks on delete', () => {
    const db = at(7);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 8),
    );
    expect(schemaVersion(db)).toBe(8);
    expect(db.prepare('SELECT name, color FROM highlight_labels ORDER BY position').all()).toEqual([
      { name: 'Quote', color: 'yellow' },
      { name: 'Check', color: 'red' },
      { name: 'Background', color: 'blue' },
    ]);
    expect(() =>
      db.prepare("INSERT INTO highlight_labels (name, color, position) VALUES ('quote', 'green', 3)").run(),
    ).toThrow(/UNIQUE/);
    const insert = db.prepare(
      "INSERT INTO highlights (transcript_id, start_ms, end_ms, label_id, note, words_text, created_at) VALUES ('t1', ?, ?, 1, ?, ?, 2)",
    );
    const id = Number(insert.run(0, 1000, 'check the date', 'Mayor Brenan spoke').lastInsertRowid);
    expect(() => insert.run(5, 5, '', 'empty')).toThrow(/CHECK/);
    const found = (query: string): number[] =>
      (
        db.prepare('SELECT rowid AS id FROM highlights_fts WHERE highlights_fts MATCH ?').all(query) as {
          id: number;
        }[]
      ).map((row) => row.id);
    expect(found('brenan')).toEqual([id]);
    expect(found('date')).toEqual([id]);
    db.prepare("UPDATE highlights SET words_text = 'Mayor Brennan spoke' WHERE id = ?").run(id);
    expect(found('brenan')).toEqual([]);
    expect(found('brennan')).toEqual([id]);

    const story = Number(
      db.prepare("INSERT INTO stories (name, created_at, updated_at) VALUES ('Ferry', 1, 1)").run()
        .lastInsertRowid,
    );
    expect(() =>
      db.prepare("INSERT INTO stories (name, created_at, updated_at) VALUES ('ferry', 1, 1)").run(),
    ).toThrow(/UNIQUE/);
    db.prepare(
      "INSERT INTO story_items (story_id, position, kind, highlight_id, snapshot_json) VALUES (?, 0, 'quote', ?, '{}')",
    ).run(story, id);
    db.prepare("INSERT INTO story_items (story_id, position, kind, text) VALUES (?, 1, 'text', 'Intro')").run(
      story,
    );
    // Deleting the transcript takes its highlights (and their index rows); quotes stay, unlinked.
    db.prepare("DELETE FROM transcripts WHERE id = 't1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM highlights').get()).toEqual({ n: 0 });
    expect(found('brennan')).toEqual([]);
    expect(db.prepare('SELECT kind, highlight_id FROM story_items ORDER BY position').all()).toEqual([
      { kind: 'quote', highlight_id: null },
      { kind: 'text', highlight_id: null },
    ]);
    db.prepare('DELETE FROM stories WHERE id = ?').run(story);
    expect(db.prepare('SELECT count(*) AS n FROM story_items').get()).toEqual({ n: 0 });
  });
});

describe('migration 9: the Quotes view order', () => {
  it('dates existing highlights by their recording, keeps new and moved ones in step, and pages without a sort', () => {
    const db = at(8);
    const transcript = db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES (?, 'Interview', 'file', '/a.wav', 'completed', ?, 1)",
    );
    transcript.run('old', 100);
    transcript.run('new', 200);
    const insert = db.prepare(
      "INSERT INTO highlights (transcript_id, start_ms, end_ms, label_id, words_text, created_at) VALUES (?, ?, ?, 1, 'words', 5)",
    );
    const before = Number(insert.run('old', 0, 1000).lastInsertRowid);
    migrate(
      db,
      migrations.filter((m) => m.version <= 9),
    );
    expect(schemaVersion(db)).toBe(9);
    const recordedAt = (id: number): unknown =>
      (db.prepare('SELECT recorded_at FROM highlights WHERE id = ?').get(id) as { recorded_at: number })
        .recorded_at;
    expect(recordedAt(before)).toBe(100);
    const after = Number(insert.run('new', 0, 1000).lastInsertRowid);
    expect(recordedAt(after)).toBe(200);
    db.prepare("UPDATE transcripts SET created_at = 300 WHERE id = 'old'").run();
    expect(recordedAt(before)).toBe(300);

    const plan = (sql: string): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((row) => row.detail)
        .join('\n');
    const order = 'ORDER BY recorded_at DESC, transcript_id, start_ms, id LIMIT 200';
    expect(plan(`SELECT id FROM highlights ${order}`)).not.toMatch(/TEMP B-TREE/);
    expect(plan(`SELECT id FROM highlights WHERE label_id = 2 ${order}`)).not.toMatch(/TEMP B-TREE/);
    expect(plan('SELECT id FROM highlights WHERE label_id = 2')).toMatch(
      /highlights_by_label_in_quotes_order/,
    );
  });
});

describe('migration 10: glossaries', () => {
  it('starts with General used by default, keeps spellings unique per glossary ignoring case, and cascades', () => {
    const db = at(10);
    expect(schemaVersion(db)).toBe(10);
    expect(db.prepare('SELECT id, name, used_by_default FROM glossaries').all()).toEqual([
      { id: 1, name: 'General', used_by_default: 1 },
    ]);
    const ferry = Number(
      db.prepare("INSERT INTO glossaries (name, created_at) VALUES ('Ferry story', 1)").run().lastInsertRowid,
    );
    expect(() => db.prepare("INSERT INTO glossaries (name, created_at) VALUES ('general', 1)").run()).toThrow(
      /UNIQUE/,
    );
    const insert = db.prepare(
      'INSERT INTO glossary_entries (glossary_id, term, kind, misheard_json, used_at) VALUES (?, ?, ?, ?, 1)',
    );
    insert.run(1, 'Brennan', 'person', '["Brenan"]');
    insert.run(ferry, 'Brennan', 'person', '[]');
    expect(() => insert.run(1, 'BRENNAN', 'person', '[]')).toThrow(/UNIQUE/);
    expect(() => insert.run(1, 'Gull Island', 'island', '[]')).toThrow(/CHECK/);
    db.prepare('DELETE FROM glossaries WHERE id = ?').run(ferry);
    expect(db.prepare('SELECT glossary_id, term FROM glossary_entries').all()).toEqual([
      { glossary_id: 1, term: 'Brennan' },
    ]);
  });
});

describe('migration 11: prefix indexes for search as one types', () => {
  it('rebuilds the sentence index with its rows, answers short prefixes from it, and keeps it in step', () => {
    const db = at(10);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    const insert = db.prepare(
      "INSERT INTO sentences (transcript_id, position, start_ms, end_ms, text) VALUES ('t1', ?, 0, 1, ?)",
    );
    insert.run(0, 'The council met the mayor.');
    insert.run(1, 'Ferries cost more.');
    migrate(
      db,
      migrations.filter((m) => m.version <= 11),
    );
    expect(schemaVersion(db)).toBe(11);
    const found = (query: string): number[] =>
      (
        db
          .prepare('SELECT rowid AS id FROM sentences_fts WHERE sentences_fts MATCH ? ORDER BY rowid')
          .all(query) as {
          id: number;
        }[]
      ).map((row) => row.id);
    expect(found('c*')).toEqual([1, 2]);
    expect(found('may*')).toEqual([1]);
    expect(found('ferr*')).toEqual([2]);
    expect(
      (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'sentences_fts'").get() as { sql: string }).sql,
    ).toMatch(/prefix = '1 2 3'/);
    insert.run(2, 'Coastal routes.');
    db.prepare("UPDATE sentences SET text = 'Boats cost more.' WHERE position = 1").run();
    db.prepare('DELETE FROM sentences WHERE position = 0').run();
    expect(found('c*')).toEqual([2, 3]);
    expect(found('fer*')).toEqual([]);
    expect(found('boa*')).toEqual([2]);
    db.prepare("INSERT INTO sentences_fts (sentences_fts, rank) VALUES ('integrity-check', 1)").run();
  });
});

describe('migration 12: tag and speaker terms in the sentence index', () => {
  it('gives existing sentences their terms, keeps them in step with tags and names, and answers filters from the index', () => {
    const db = at(11);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    db.prepare("INSERT INTO transcript_tags VALUES ('t1', 'Ferry')").run();
    db.prepare("INSERT INTO speakers VALUES ('t1', 'A', 'Elena Álvarez')").run();
    const insert = db.prepare(
      "INSERT INTO sentences (transcript_id, position, start_ms, end_ms, speaker, text) VALUES ('t1', ?, 0, 1, ?, ?)",
    );
    insert.run(0, 'A', 'The council met the mayor.');
    insert.run(1, 'B', 'The mayor answered.');
    insert.run(2, null, 'Applause.');
    migrate(
      db,
      migrations.filter((m) => m.version <= 12),
    );
    expect(schemaVersion(db)).toBe(12);
    const facets = (): string[] =>
      (db.prepare('SELECT facets FROM sentences ORDER BY position').all() as { facets: string }[]).map(
        (row) => row.facets,
      );
    const hex = (text: string): string => Buffer.from(text).toString('hex').toUpperCase();
    expect(facets()).toEqual([
      `xt${hex('ferry')} xl${hex('A')} xn${hex('elena Álvarez')}`,
      `xt${hex('ferry')} xl${hex('B')}`,
      `xt${hex('ferry')}`,
    ]);
    const found = (filters: { tag?: string; speaker?: string }, words = 'mayor'): number[] =>
      (
        db
          .prepare('SELECT rowid AS id FROM sentences_fts WHERE sentences_fts MATCH ? ORDER BY rowid')
          .all(`text : ("${words}") AND ${facetQuery(filters)}`) as { id: number }[]
      ).map((row) => row.id);
    expect(found({ tag: 'FERRY' })).toEqual([1, 2]);
    expect(found({ speaker: 'ELENA álvarez' })).toEqual([]); // NOCASE folds ASCII letters only
    expect(found({ speaker: 'elena Álvarez' })).toEqual([1]);
    expect(found({ speaker: 'B', tag: 'ferry' })).toEqual([2]);

    // Tags and names change after the sentences exist: the triggers rewrite their terms.
    db.prepare("INSERT INTO transcript_tags VALUES ('t1', 'council')").run();
    db.prepare("DELETE FROM transcript_tags WHERE tag = 'Ferry'").run();
    db.prepare("UPDATE speakers SET name = 'Mayor Ortiz' WHERE label = 'A'").run();
    db.prepare("INSERT INTO speakers VALUES ('t1', 'B', 'Daniel Reyes')").run();
    expect(found({ tag: 'ferry' })).toEqual([]);
    expect(found({ tag: 'Council', speaker: 'mayor ortiz' })).toEqual([1]);
    expect(found({ speaker: 'daniel reyes' })).toEqual([2]);
    db.prepare("DELETE FROM speakers WHERE label = 'B'").run();
    expect(found({ speaker: 'daniel reyes' })).toEqual([]);
    expect(found({ speaker: 'B' })).toEqual([2]);

    // The words never match a filter term.
    expect(found({ tag: 'council' }, 'xt')).toEqual([]);
    db.prepare("INSERT INTO sentences_fts (sentences_fts, rank) VALUES ('integrity-check', 1)").run();
  });
});

describe('migration 13: recordings', () => {
  it('registers recordings with their format, refuses a bad one, and unlinks a deleted transcript', () => {
    const db = at(13);
    expect(schemaVersion(db)).toBe(13);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    const insert = db.prepare(
      "INSERT INTO recordings (path, started_at, sample_rate, channels, status, process_id, transcript_id) VALUES (?, 1, ?, ?, 'recording', 10, ?)",
    );
    insert.run('/r/one.wav', 48_000, 1, 't1');
    expect(() => insert.run('/r/two.wav', 48_000, 3, null)).toThrow(/CHECK/);
    expect(() => insert.run('/r/three.wav', 1, 1, null)).toThrow(/CHECK/);
    expect(() => insert.run('/r/one.wav', 48_000, 1, null)).toThrow(/UNIQUE/);
    db.prepare("DELETE FROM transcripts WHERE id = 't1'").run();
    expect(db.prepare('SELECT path, transcript_id FROM recordings').all()).toEqual([
      { path: '/r/one.wav', transcript_id: null },
    ]);
  });
});

describe('migration 14: recording dates in the sentence index', () => {
  it('dates existing sentences, follows a changed recording date, and answers a date range from the index', () => {
    const db = at(13);
    const day = 86_400_000;
    const insertTranscript = db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES (?, 'Interview', 'file', '/a.wav', 'completed', ?, 0)",
    );
    insertTranscript.run('t1', Date.UTC(2025, 11, 31, 23, 30)); // the last half hour of 2025, UTC
    insertTranscript.run('t2', Date.UTC(2026, 0, 1, 8));
    db.prepare("INSERT INTO transcript_tags VALUES ('t1', 'ferry')").run();
    const insert = db.prepare(
      "INSERT INTO sentences (transcript_id, position, start_ms, end_ms, speaker, text) VALUES (?, ?, 0, 1, 'A', ?)",
    );
    insert.run('t1', 0, 'The mayor spoke on New Year’s Eve.');
    insert.run('t2', 0, 'The mayor spoke on New Year’s Day.');
    migrate(
      db,
      migrations.filter((m) => m.version <= 14),
    );
    expect(schemaVersion(db)).toBe(14);
    const facets = (): string[] =>
      (db.prepare('SELECT facets FROM sentences ORDER BY id').all() as { facets: string }[]).map(
        (row) => row.facets,
      );
    const hex = (text: string): string => Buffer.from(text).toString('hex').toUpperCase();
    expect(facets()).toEqual([
      `xt${hex('ferry')} xl${hex('A')} xy2025 xm202512 xd20251231`,
      `xl${hex('A')} xy2026 xm202601 xd20260101`,
    ]);
    const found = (from: number, to: number): number[] =>
      (
        db
          .prepare('SELECT rowid AS id FROM sentences_fts WHERE sentences_fts MATCH ? ORDER BY rowid')
          .all(`text : ("mayor") AND ${facetQuery({}, { from, to })}`) as { id: number }[]
      ).map((row) => row.id);
    expect(found(Date.UTC(2025, 11, 31), Date.UTC(2025, 11, 31, 23, 59))).toEqual([1]);
    expect(found(Date.UTC(2025, 0, 1), Date.UTC(2026, 11, 31))).toEqual([1, 2]);
    expect(found(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1))).toEqual([2]);
    expect(found(Date.UTC(2024, 0, 1), Date.UTC(2025, 10, 30))).toEqual([]);

    // A recording date corrected later moves its sentences with it.
    db.prepare('UPDATE transcripts SET created_at = ? WHERE id = ?').run(Date.UTC(2026, 0, 1, 9), 't1');
    expect(found(Date.UTC(2025, 11, 31), Date.UTC(2025, 11, 31, 23, 59))).toEqual([]);
    expect(found(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + day - 1)).toEqual([1, 2]);

    // A sentence inserted now carries what the view would give it (the library inserts with
    // search-facets.ts's expression; a trigger rewrites with the view).
    db.prepare(
      `INSERT INTO sentences (transcript_id, position, start_ms, end_ms, speaker, text, facets)
       VALUES ('t1', 1, 0, 1, 'A', 'The mayor left.', ${newSentenceFacetsSql.replaceAll('@transcript', "'t1'").replaceAll('@speaker', "'A'")})`,
    ).run();
    const [first, , added] = facets();
    expect(added).toBe(first);
    db.prepare("INSERT INTO transcript_tags VALUES ('t1', 'council')").run();
    expect(facets()[2]).toBe(facets()[0]);
    expect(facets()[0]).toContain(`xt${hex('council')}`);
    db.prepare("INSERT INTO sentences_fts (sentences_fts, rank) VALUES ('integrity-check', 1)").run();
  });
});

describe('migration 15: marked moments of a recording', () => {
  it('keeps marks in order per recording, refuses a negative time, and follows deletions', () => {
    const db = at(15);
    expect(schemaVersion(db)).toBe(15);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO recordings (id, path, started_at, sample_rate, channels, status, process_id, transcript_id) VALUES (1, '/r/one.wav', 1, 48000, 1, 'finished', 10, 't1')",
    ).run();
    const mark = db.prepare('INSERT INTO recording_marks (recording_id, at_ms, note) VALUES (1, ?, ?)');
    mark.run(9000, 'budget');
    mark.run(3000, '');
    expect(() => mark.run(-1, '')).toThrow(/CHECK/);
    const highlight = db
      .prepare(
        "INSERT INTO highlights (transcript_id, start_ms, end_ms, label_id, created_at) VALUES ('t1', 3000, 4000, 1, 1) RETURNING id",
      )
      .get() as { id: number };
    db.prepare('UPDATE recording_marks SET placed = 1, highlight_id = ? WHERE at_ms = 3000').run(
      highlight.id,
    );
    // A highlight deleted later leaves its mark placed, so it is not made again.
    db.prepare('DELETE FROM highlights').run();
    expect(
      db
        .prepare('SELECT at_ms, note, placed, highlight_id FROM recording_marks ORDER BY recording_id, at_ms')
        .all(),
    ).toEqual([
      { at_ms: 3000, note: '', placed: 1, highlight_id: null },
      { at_ms: 9000, note: 'budget', placed: 0, highlight_id: null },
    ]);
    db.prepare('DELETE FROM recordings').run();
    expect(db.prepare('SELECT count(*) AS n FROM recording_marks').get()).toEqual({ n: 0 });
  });
});

describe('migration 17: the newsroom outbox and each transcript publication', () => {
  it('keeps one waiting item a transcript, refuses an unknown state, and keeps the outbox when a transcript goes', () => {
    const db = at(17);
    expect(schemaVersion(db)).toBe(17);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    const publication = db.prepare(
      "INSERT INTO newsroom_publications (transcript_id, desk, confidential, with_audio, revision_requested, state, updated_at) VALUES ('t1', 'City', 0, 0, 1, ?, 1)",
    );
    expect(() => publication.run('sent')).toThrow(/CHECK/);
    publication.run('waiting');
    const item = db.prepare(
      "INSERT INTO newsroom_outbox (transcript_id, revision, item_json, created_at) VALUES ('t1', ?, '{}', 1)",
    );
    item.run(1);
    expect(() => item.run(2)).toThrow(/UNIQUE/);
    expect(
      db.prepare('SELECT attempts, next_attempt_at, last_error, lease_holder FROM newsroom_outbox').get(),
    ).toEqual({
      attempts: 0,
      next_attempt_at: 0,
      last_error: null,
      lease_holder: null,
    });
    // What was asked of the archive is still sent after the transcript is deleted here.
    db.prepare("DELETE FROM transcripts WHERE id = 't1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM newsroom_publications').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM newsroom_outbox').get()).toEqual({ n: 1 });
  });
});

describe('migration 19: copies kept from the newsroom', () => {
  it("leaves the reporter's own transcripts without an origin, and keeps one copy per colleague's transcript", () => {
    const db = at(18);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('own', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 19),
    );
    expect(schemaVersion(db)).toBe(19);
    expect(
      db
        .prepare(
          "SELECT newsroom_reporter, newsroom_revision, newsroom_kept_at FROM transcripts WHERE id = 'own'",
        )
        .get(),
    ).toEqual({ newsroom_reporter: null, newsroom_revision: null, newsroom_kept_at: null });
    const copy = db.prepare(
      `INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at,
         newsroom_reporter, newsroom_transcript_id, newsroom_desk, newsroom_revision, newsroom_kept_at)
       VALUES (?, 'Harbour', 'url', 'newsroom', 'completed', 1, 1, 'ana', 'harbour', 'City', ?, 2)`,
    );
    copy.run('copy-1', 1);
    expect(() => copy.run('copy-2', 2)).toThrow(/UNIQUE/);
    expect(() => copy.run('copy-3', 0)).toThrow(/CHECK/);
    // A second transcript of the reporter's own is no copy: the index leaves it alone.
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('own-2', 'Other', 'file', '/b.wav', 'completed', 1, 1)",
    ).run();
    expect(db.prepare('SELECT count(*) AS n FROM transcripts').get()).toEqual({ n: 3 });
  });
});

describe('migration 20: newsroom glossaries in the library', () => {
  it('keeps the glossaries as they were, a copy once per newsroom glossary, and one waiting change a spelling', () => {
    const db = at(19);
    db.prepare("INSERT INTO glossary_entries (glossary_id, term, used_at) VALUES (1, 'Okonkwo', 1)").run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 20),
    );
    expect(schemaVersion(db)).toBe(20);
    expect(db.prepare('SELECT newsroom, newsroom_id, newsroom_may_change FROM glossaries').get()).toEqual({
      newsroom: null,
      newsroom_id: null,
      newsroom_may_change: null,
    });
    expect(db.prepare('SELECT newsroom_revision FROM glossary_entries').get()).toEqual({
      newsroom_revision: 0,
    });
    const copy = db.prepare(
      "INSERT INTO glossaries (name, created_at, newsroom, newsroom_id, newsroom_desk, newsroom_owner, newsroom_may_change) VALUES (?, 1, 'postgres://ben@h:5432/v', 'g-1', 'City', 'ana', 0)",
    );
    copy.run('City names');
    expect(() => copy.run('City names 2')).toThrow(/UNIQUE/);
    const change = db.prepare(
      "INSERT INTO newsroom_glossary_changes (id, glossary_id, term_key, base_revision, entry_json, created_at) VALUES (?, 2, 'okonkwo', ?, NULL, 1)",
    );
    change.run('c-1', 1);
    expect(() => change.run('c-2', 2)).toThrow(/UNIQUE/);
    expect(() => change.run('c-3', -1)).toThrow(/CHECK|UNIQUE/);
    db.prepare(
      "INSERT INTO newsroom_glossary_proposals (id, glossary_id, entry_json, created_at) VALUES ('p-1', 2, '{}', 1)",
    ).run();
    // A copy removed takes what waited for it with it.
    db.prepare('DELETE FROM glossaries WHERE id = 2').run();
    expect(db.prepare('SELECT count(*) AS n FROM newsroom_glossary_changes').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM newsroom_glossary_proposals').get()).toEqual({ n: 0 });
  });
});

describe('migration 21: notices of working together', () => {
  it('keeps one notice per key, and finds the unread ones by its index', () => {
    const db = at(21);
    expect(schemaVersion(db)).toBe(21);
    const notice = db.prepare(
      `INSERT OR IGNORE INTO collaboration_notices (key, kind, by_user, text, target_json, at, received_at)
       VALUES (?, 'comment', 'cleo', 'cleo commented on quote 2', '{}', 1, 2)`,
    );
    expect(notice.run('comment:a').changes).toBe(1);
    expect(notice.run('comment:a').changes).toBe(0);
    notice.run('comment:b');
    db.prepare("UPDATE collaboration_notices SET read_at = 3 WHERE key = 'comment:a'").run();
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT count(*) FROM collaboration_notices WHERE read_at IS NULL')
      .all() as { detail: string }[];
    expect(plan.map((step) => step.detail).join(' ')).toContain('collaboration_notices_unread');
    expect(db.prepare('SELECT count(*) AS n FROM collaboration_notices WHERE read_at IS NULL').get()).toEqual(
      { n: 1 },
    );
  });
});

describe('migration 22: who checked a paragraph', () => {
  it("keeps the stamps made before as the reporter's own and takes a colleague's login", () => {
    const db = at(19);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    db.prepare("INSERT INTO paragraph_checks VALUES ('t1', 0, 3)").run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 22),
    );
    expect(schemaVersion(db)).toBe(22);
    // A stamp made before knew no one else: it is this library's reporter's (NULL).
    expect(db.prepare('SELECT paragraph, checked_at, checked_by FROM paragraph_checks').all()).toEqual([
      { paragraph: 0, checked_at: 3, checked_by: null },
    ]);
    db.prepare("INSERT INTO paragraph_checks VALUES ('t1', 1, 4, 'ana')").run();
    expect(() => db.prepare("INSERT INTO paragraph_checks VALUES ('t1', 1, 5, 'ben')").run()).toThrow(
      /UNIQUE|PRIMARY/,
    );
    db.prepare("DELETE FROM transcripts WHERE id = 't1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM paragraph_checks').get()).toEqual({ n: 0 });
  });
});

describe('migration 23: stories an editor reviews', () => {
  it('keeps shares, shared stories, comments, approvals and the cursor per newsroom, with what waits to be sent', () => {
    const db = at(19);
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('own', 'Interview', 'file', '/a.wav', 'completed', 1, 1)",
    ).run();
    migrate(
      db,
      migrations.filter((m) => m.version <= 23),
    );
    expect(schemaVersion(db)).toBe(23);
    const share = db.prepare(
      "INSERT INTO story_shares (newsroom, story_id, desk, revision_asked) VALUES (?, 3, 'City', ?)",
    );
    share.run('postgres://ana@db/verbatim', 1);
    share.run('postgres://ana@other/verbatim', 1);
    expect(() => share.run('postgres://ana@db/verbatim', 2)).toThrow(/UNIQUE/);
    expect(() => share.run('postgres://ana@third/verbatim', 0)).toThrow(/CHECK/);
    const comment = db.prepare(
      `INSERT INTO story_review_comments (id, newsroom, story_key, author, anchor_json, kind, body, created_at, comment_waiting)
       VALUES (?, 'n', 'ana/3', 'cleo', '{}', ?, 'Check this', 1, 1)`,
    );
    comment.run('c1', 'comment');
    expect(() => comment.run('c2', 'praise')).toThrow(/CHECK/);
    expect(
      db.prepare('SELECT comment_waiting, resolve_waiting, resolved_at FROM story_review_comments').get(),
    ).toEqual({ comment_waiting: 1, resolve_waiting: 0, resolved_at: null });
    db.prepare("INSERT INTO story_review_cursors (newsroom, cursor) VALUES ('n', '0')").run();
    expect(db.prepare('SELECT count(*) AS n FROM transcripts').get()).toEqual({ n: 1 });
  });
});

describe('the migration runner', () => {
  it('is idempotent and numbers migrations without gaps', () => {
    const db = at(5);
    migrate(db, migrations);
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, index) => index + 1));
  });

  it('rolls a failing migration back whole', () => {
    const db = at(1);
    const broken = [
      ...migrations.filter((m) => m.version <= 1),
      { version: 2, name: 'broken', sql: 'CREATE TABLE half (x); SELECT nonsense FROM nowhere;' },
    ];
    expect(() => migrate(db, broken)).toThrow();
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
  });
});
