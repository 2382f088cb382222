import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database';
import { newSentenceFacetsSql } from './search-facets';
import { countCap, TranscriptSearch } from './transcript-search';

let db: Db;
let search: TranscriptSearch;

/** Sentences straight into the table (the triggers index them), all said by speaker A. */
function store(transcript: string, createdAt: number, texts: readonly string[]): void {
  db.prepare(
    "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES (?, ?, 'file', '/a.wav', 'completed', ?, ?)",
  ).run(transcript, `Interview ${transcript}`, createdAt, createdAt);
  db.transaction(() =>
    texts.forEach((text, position) =>
      insertSentence({ transcript, position, startMs: position * 1000, speaker: 'A', text }),
    ),
  )();
}

/** One sentence as the library inserts it, with its filter terms (search-facets.ts). */
function insertSentence(sentence: {
  transcript: string;
  position: number;
  startMs: number;
  speaker: string | null;
  text: string;
}): void {
  db.prepare(
    `INSERT INTO sentences (transcript_id, position, start_ms, end_ms, speaker, text, facets)
     VALUES (@transcript, @position, @startMs, @startMs + 900, @speaker, @text, ${newSentenceFacetsSql})`,
  ).run(sentence);
}

beforeEach(() => {
  db = openDatabase(':memory:');
  search = new TranscriptSearch(db);
});
afterEach(() => db.close());

describe('library search ranking', () => {
  it('ranks every match by relevance when there are at most the cap of them', () => {
    store('t1', 1, ['the mayor said the mayor', 'a mayor', 'the council and the mayor of the port']);
    const page = search.search('mayor');
    expect(page).toMatchObject({ total: 3, totalIsLowerBound: false, ranking: 'relevance' });
    // bm25: the sentence saying it twice in few words first, the long one last.
    expect(page.hits.map((hit) => hit.sentencePosition)).toEqual([0, 1, 2]);
  });

  it('ranks the most recent matches among themselves past the cap, and says so', () => {
    const old = Array.from({ length: countCap }, (_, i) => `mayor mayor mayor old ${i}`);
    store('old', 1, old);
    const recent = Array.from({ length: countCap }, (_, i) =>
      i === 7 ? 'mayor mayor recent best' : `the mayor spoke at length about the ferry ${i}`,
    );
    store('recent', 2, recent);
    const page = search.search('mayor', {}, { limit: 5 });
    expect(page).toMatchObject({ total: countCap, totalIsLowerBound: true, ranking: 'recent' });
    // The old transcript's sentences say "mayor" more often, but are not among the newest thousand.
    expect(page.hits.every((hit) => hit.transcriptId === 'recent')).toBe(true);
    expect(page.hits[0]?.sentencePosition).toBe(7);
    // Paging stays inside that window: it ends with the thousandth.
    expect(search.search('mayor', {}, { limit: 20, offset: countCap - 5 }).hits).toHaveLength(5);
    // A word that narrows the matches below the cap reaches back to every one again.
    expect(search.search('mayor old')).toMatchObject({ ranking: 'relevance', total: countCap });
  });

  it('answers a one-letter prefix from the prefix index, with the same ranking rules', () => {
    store('t1', 1, ['Council meets', 'Ferry costs', 'cats and dogs']);
    expect(
      search
        .search('c')
        .hits.map((hit) => hit.sentencePosition)
        .sort(),
    ).toEqual([0, 1, 2]);
    expect(search.search('fe').hits.map((hit) => hit.sentencePosition)).toEqual([1]);
  });

  it('keeps a date range exactly, whatever order the transcripts were stored in, an open end reaching the first or last recording', () => {
    const at = (day: number, hour: number): number => Date.UTC(2026, 0, day, hour);
    store('march', Date.UTC(2026, 2, 15, 10), ['the mayor in March']);
    store('late-first', at(1, 23), ['the mayor late on the first']);
    store('early-second', at(2, 1), ['the mayor early on the second']);
    store('new-year-eve', Date.UTC(2025, 11, 31, 12), ['the mayor on New Year’s Eve']); // an old recording imported last
    const kept = (filters: { from?: number; to?: number }): string[] =>
      search
        .search('mayor', filters)
        .hits.map((hit) => hit.transcriptId)
        .sort();
    // The edges are exact inside a day: 23:30 on the first leaves out the 23:00 recording.
    expect(kept({ from: at(1, 23) + 1_800_000 })).toEqual(['early-second', 'march']);
    expect(kept({ from: Date.UTC(2025, 11, 31), to: at(2, 0) + 1_800_000 })).toEqual([
      'late-first',
      'new-year-eve',
    ]);
    expect(kept({ to: Date.UTC(2025, 11, 31, 23, 59) })).toEqual(['new-year-eve']);
    expect(kept({ from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 11, 31) })).toEqual([
      'early-second',
      'late-first',
      'march',
    ]);
    expect(kept({ from: at(2, 2), to: at(2, 1) })).toEqual([]);
    expect(kept({ from: Date.UTC(2027, 0, 1) })).toEqual([]);
  });

  it('finds through a transcript filter only inside the kept transcripts, corrected ones too, by the same ranking', () => {
    for (let t = 0; t < 10; t++)
      store(
        `t${t}`,
        t,
        Array.from({ length: 300 }, (_, i) => `the mayor said ${t} ${i}`),
      );
    db.prepare("INSERT INTO transcript_tags VALUES ('t3', 'ferry'), ('t7', 'ferry')").run();
    db.prepare("INSERT INTO speakers VALUES ('t7', 'A', 'Mayor Ortiz')").run();
    // t3 corrected: a sentence rewritten is stored after every other transcript's.
    db.prepare("DELETE FROM sentences WHERE transcript_id = 't3' AND position = 5").run();
    insertSentence({
      transcript: 't3',
      position: 5,
      startMs: 5000,
      speaker: null,
      text: 'the mayor said ferry fixed',
    });
    db.prepare("UPDATE transcripts SET corrections_revision = 1 WHERE id = 't3'").run();

    const tagged = search.search('mayor', { tag: 'ferry' }, { limit: 1000 });
    expect(tagged).toMatchObject({ total: 600, totalIsLowerBound: false, ranking: 'relevance' });
    expect(new Set(tagged.hits.map((hit) => hit.transcriptId))).toEqual(new Set(['t3', 't7']));
    expect(search.search('fixed', { tag: 'ferry' }).hits.map((hit) => hit.transcriptId)).toEqual(['t3']);
    // The same page as searching everywhere and checking the filter on every match (a label is not a scope).
    const everywhere = search.search('said', { tag: 'ferry', speaker: 'A' }, { limit: 50 });
    expect(everywhere.hits.every((hit) => hit.transcriptId === 't3' || hit.transcriptId === 't7')).toBe(true);
    const named = search.search('mayor', { speaker: 'mayor ortiz' }, { limit: 5 });
    expect(named.hits.map((hit) => hit.transcriptId)).toEqual(['t7', 't7', 't7', 't7', 't7']);
    expect(named.total).toBe(300);
    // Past the cap in the kept transcripts: the newest of them, said so.
    const dated = search.search('mayor', { from: 4, to: 9 });
    expect(dated).toMatchObject({ total: countCap, totalIsLowerBound: true, ranking: 'recent' });
    expect(dated.hits.every((hit) => Number(hit.transcriptId.slice(1)) >= 6)).toBe(true);
    expect(search.search('mayor', { tag: 'nothing' })).toMatchObject({ total: 0, hits: [] });
    // Typing "x", "xt" or "xl" finds words, never the filter terms stored beside them.
    for (const typed of ['x', 'xt', 'xl']) expect(search.search(typed).total).toBe(0);
  });
});
