import type { Db } from './database';
import type { SearchFilters, SearchHit, SearchPage } from '../../../shared/library';
import { highlight, queryTerms, toFtsQuery, type QueryTerms } from './fts-query';
import { scoreSentences, type Scored } from './relevance';
import { facetQuery, type DateSpan } from './search-facets';
import { statement } from './statement-cache';

/** Beyond this many matches the total is reported as "at least", which keeps counting cheap. */
export const countCap = 1000;

interface HitRow {
  id: number;
  transcript_id: string;
  title: string;
  position: number;
  start_ms: number;
  end_ms: number;
  speaker: string | null;
  speaker_name: string | null;
  text: string;
}

/** One search's SQL pieces: the match, the filters, and the values they are run with. */
interface SearchQuery {
  filtered: boolean;
  /** The query's words (and prefix), folded, for scoring the matches (relevance.ts). */
  terms: QueryTerms;
  where: string;
  values: Record<string, unknown>;
}

/** Past this share of the library kept by a filter, searching everywhere is as quick as in runs. */
const scopedShare = 0.3;
/** More runs than this, and one walk over the whole index is quicker (measured: bench/library-search.ts). */
const maxRuns = 8;

/** Sentence ids `low`..`high`: one transcript's, or several stored one after another. */
interface IdRun {
  low: number;
  high: number;
}

interface Ranked {
  page: Scored[];
  total: number;
  ranking: SearchPage['ranking'];
}

/** Runs that touch or overlap become one, newest (highest ids) first. */
function mergeRuns(runs: IdRun[]): IdRun[] {
  const merged: IdRun[] = [];
  for (const run of [...runs].sort((a, b) => a.low - b.low)) {
    const previous = merged[merged.length - 1];
    if (previous && run.low <= previous.high + 1) previous.high = Math.max(previous.high, run.high);
    else merged.push({ ...run });
  }
  return merged.reverse();
}

const joins = `JOIN sentences s ON s.id = sentences_fts.rowid
        JOIN transcripts t ON t.id = s.transcript_id`;

/**
 * Ranked full-text search over every sentence, with highlighted snippets. Any input is a
 * valid query: what cannot be searched for simply finds nothing. The matches are counted first,
 * up to one past `countCap` (cheap: the count stops there), and the count decides the ranking:
 * - at most `countCap` matches: every match ranked by relevance (BM25, scored in relevance.ts);
 * - more: the `countCap` most recent matches (the newest sentences of the library: the index
 *   walks its rows newest first and stops) ranked by relevance among themselves, and the page
 *   says so (`ranking: 'recent'`), so the UI can show "best of the 1,000 most recent".
 * Ranking every match of a word in half the library took 430 ms at 1,000 hours and grows with
 * the library; over the newest thousand it costs the same at any size. FTS5's own bm25() is not
 * used even there: it walks every row of each word to learn how common it is (relevance.ts). A journalist searching
 * years of interviews for "mayor" wants this week's mayor first, and can add a word or a filter
 * to reach further back. The total is reported as "at least" beyond the cap. Synchronous; the
 * Library facade makes it async.
 */
export class TranscriptSearch {
  constructor(private readonly db: Db) {}

  search(
    query: string,
    filters: SearchFilters = {},
    page: { limit?: number; offset?: number } = {},
  ): SearchPage {
    const limit = page.limit ?? 20;
    const offset = page.offset ?? 0;
    const words = toFtsQuery(query);
    const nothing: SearchPage = {
      hits: [],
      total: 0,
      totalIsLowerBound: false,
      ranking: 'relevance',
      limit,
      offset,
    };
    if (!words) return nothing;
    // A tag, speaker or date filter is a term of the index (search-facets.ts). Those terms all
    // start with "x", so only a typed word starting so could reach them ("x", "xt…"): then the
    // words are looked for in the text column alone. Always doing so reads every match's
    // positions: "the" over 1,000 hours took 8.4 ms rather than 7.4 (median of count and ranking).
    const facets = facetQuery(filters, this.dateSpan(filters));
    if (facets === null) return nothing;
    const inText = /"x/i.test(words) ? `text : (${words})` : words;
    const match = facets ? `${inText} AND ${facets}` : inText;
    const { conditions, params } = filterConditions(filters);
    const terms = queryTerms(query);
    const q: SearchQuery = {
      filtered: conditions.length > 0,
      terms,
      where: ['sentences_fts MATCH @match', ...conditions].join(' AND '),
      values: { ...params, match, limit, offset, cap: countCap + 1, window: countCap },
    };
    const scope = this.transcriptScope(filters, params);
    const ranked = scope ? this.rankInRuns(q, scope) : this.rankEverywhere(q);
    const hits = this.hits(ranked.page, terms);
    return {
      hits,
      total: Math.min(ranked.total, countCap),
      totalIsLowerBound: ranked.total > countCap,
      ranking: ranked.ranking,
      limit,
      offset,
    };
  }

  /**
   * The recording dates a date filter keeps, an open end closed at the library's first or last
   * recording (read from the index on `created_at`); undefined without a date filter. An empty
   * library gives an empty span: nothing can match.
   */
  private dateSpan(filters: SearchFilters): DateSpan | undefined {
    if (filters.from === undefined && filters.to === undefined) return undefined;
    const ends = statement(
      this.db,
      'SELECT (SELECT min(created_at) FROM transcripts) AS first, (SELECT max(created_at) FROM transcripts) AS last',
    ).get() as { first: number | null; last: number | null };
    if (ends.first === null || ends.last === null) return { from: 1, to: 0 };
    return { from: filters.from ?? ends.first, to: filters.to ?? ends.last };
  }

  /** Over the whole index: counted first, then ranked by the rule the count decides. */
  private rankEverywhere(q: SearchQuery): Ranked {
    const total = this.count(q);
    const ranking = total > countCap ? 'recent' : 'relevance';
    return { page: this.rank(q, ranking), total, ranking };
  }

  /**
   * The transcripts a filter keeps, as runs of sentence ids, when they are few (at most
   * `scopedShare` of the library): a transcript's sentences are stored together, in order, so
   * its first and last sentence (by position, from the index) bound them; one corrected since
   * has rows stored later, and its exact smallest and largest ids are read instead. Searching
   * only inside those runs costs what the kept transcripts hold, not the whole library: a date
   * status or language kept by a few transcripts no longer means checking every match of "the"
   * against it. Undefined when the filter keeps most of the library, or neither filter is given
   * (a tag, speaker or date is a term of the index itself: search-facets.ts; the ids bound a
   * run cheaply only near the newest end of a word's list of sentences, FTS5 reading every
   * entry before a bound).
   */
  private transcriptScope(filters: SearchFilters, params: Record<string, unknown>): IdRun[] | undefined {
    const conditions = transcriptConditions({ status: filters.status, language: filters.language });
    if (conditions.length === 0) return undefined;
    const kept = statement(
      this.db,
      `SELECT t.id, t.corrections_revision AS revision FROM transcripts t WHERE ${conditions.join(' AND ')}`,
    ).all(params) as { id: string; revision: number }[];
    const all = (statement(this.db, 'SELECT count(*) AS n FROM transcripts').get() as { n: number }).n;
    if (kept.length > all * scopedShare) return undefined;
    const first = statement(
      this.db,
      'SELECT id FROM sentences WHERE transcript_id = ? ORDER BY position LIMIT 1',
    );
    const last = statement(
      this.db,
      'SELECT id FROM sentences WHERE transcript_id = ? ORDER BY position DESC LIMIT 1',
    );
    const exact = statement(
      this.db,
      'SELECT min(id) AS low, max(id) AS high FROM sentences WHERE transcript_id = ?',
    );
    const runs: IdRun[] = [];
    for (const transcript of kept) {
      const run =
        transcript.revision > 0
          ? (exact.get(transcript.id) as { low: number | null; high: number | null })
          : {
              low: (first.get(transcript.id) as { id: number } | undefined)?.id ?? null,
              high: (last.get(transcript.id) as { id: number } | undefined)?.id ?? null,
            };
      if (run.low !== null && run.high !== null) runs.push({ low: run.low, high: run.high });
    }
    const merged = mergeRuns(runs);
    // FTS5 walks a multi-word query's matches from the start of each range it is given, so many
    // scattered runs (a tag here and there) cost more than one walk over the whole index.
    return merged.length <= maxRuns ? merged : undefined;
  }

  /**
   * Inside the runs, newest first, the matches up to one past the cap (each checked against the
   * filters as everywhere), then ranked by the same rule: all of them by relevance, or past the
   * cap the `countCap` newest by relevance among themselves.
   */
  private rankInRuns(q: SearchQuery, runs: readonly IdRun[]): Ranked {
    const inRun = statement(
      this.db,
      `SELECT sentences_fts.rowid AS id FROM sentences_fts ${joins}
       WHERE ${q.where} AND sentences_fts.rowid BETWEEN @low AND @high
       ORDER BY sentences_fts.rowid DESC LIMIT @left`,
    );
    const found: number[] = [];
    for (const run of runs) {
      const left = countCap + 1 - found.length;
      if (left <= 0) break;
      found.push(...(inRun.all({ ...q.values, ...run, left }) as { id: number }[]).map((row) => row.id));
    }
    const ranking = found.length > countCap ? 'recent' : 'relevance';
    return { page: this.best(q, found.slice(0, countCap), ranking), total: found.length, ranking };
  }

  /** The page's sentence ids, best first: among every match, or among the most recent `countCap`. */
  private rank(q: SearchQuery, ranking: SearchPage['ranking']): Scored[] {
    const from = q.filtered ? `sentences_fts ${joins}` : 'sentences_fts';
    const sql =
      ranking === 'relevance'
        ? `SELECT sentences_fts.rowid AS id FROM ${from} WHERE ${q.where} LIMIT @window`
        : `SELECT sentences_fts.rowid AS id FROM ${from} WHERE ${q.where}
           ORDER BY sentences_fts.rowid DESC LIMIT @window`;
    const ids = (statement(this.db, sql).all(q.values) as { id: number }[]).map((row) => row.id);
    return this.best(q, ids, ranking);
  }

  /**
   * The page of these matches, scored by relevance (relevance.ts); among equals the oldest first,
   * or past the cap the newest first.
   */
  private best(q: SearchQuery, ids: readonly number[], ranking: SearchPage['ranking']): Scored[] {
    if (ids.length === 0) return [];
    const rows = statement(
      this.db,
      `SELECT id, text FROM sentences WHERE id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids)) as { id: number; text: string }[];
    const scored = scoreSentences(rows, q.terms, this.documentCounts(q.terms), this.sentenceCount());
    scored.sort((a, b) => a.rank - b.rank || (ranking === 'recent' ? b.id - a.id : a.id - b.id));
    const { limit, offset } = q.values as { limit: number; offset: number };
    return scored.slice(offset, offset + limit);
  }

  /** How many sentences have each word (or the prefix), counted up to one past the cap. */
  private documentCounts(terms: QueryTerms): Map<string, number> {
    const count = statement(
      this.db,
      'SELECT count(*) AS n FROM (SELECT 1 FROM sentences_fts WHERE sentences_fts MATCH ? LIMIT ?)',
    );
    const counted = (key: string, match: string): [string, number] => {
      // A word starting with "x" is looked for in the text only (the filter terms start so).
      const inText = key.startsWith('x') ? `text : (${match})` : match;
      return [key, (count.get(inText, countCap + 1) as { n: number }).n];
    };
    const quote = (word: string): string => `"${word.replaceAll('"', '""')}"`;
    return new Map([
      ...[...terms.words].map((word) => counted(word, quote(word))),
      ...(terms.prefix === undefined ? [] : [counted(`${terms.prefix}*`, `${quote(terms.prefix)}*`)]),
    ]);
  }

  /** The library's sentences, near enough for a word's rarity: the highest id, read from the key. */
  private sentenceCount(): number {
    return (statement(this.db, 'SELECT coalesce(max(id), 0) AS n FROM sentences').get() as { n: number }).n;
  }

  /** Every match, counted up to one past the cap. */
  private count(q: SearchQuery): number {
    const sql = q.filtered
      ? `SELECT count(*) AS n FROM (SELECT 1 FROM sentences_fts ${joins} WHERE ${q.where} LIMIT @cap)`
      : 'SELECT count(*) AS n FROM (SELECT 1 FROM sentences_fts WHERE sentences_fts MATCH @match LIMIT @cap)';
    return (statement(this.db, sql).get(q.values) as { n: number }).n;
  }

  /** The ranked sentences with their transcript, speaker and a highlighted snippet, in rank order. */
  private hits(ranked: { id: number; rank: number }[], terms: QueryTerms): SearchHit[] {
    const rows = ranked.length === 0 ? [] : this.hitRows(ranked.map((r) => r.id));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ranked.flatMap(({ id, rank }) => {
      const row = byId.get(id);
      if (!row) return [];
      return [
        {
          transcriptId: row.transcript_id,
          transcriptTitle: row.title,
          sentencePosition: row.position,
          startMs: row.start_ms,
          endMs: row.end_ms,
          speaker: row.speaker,
          speakerName: row.speaker_name,
          snippet: highlight(row.text, terms),
          rank,
        },
      ];
    });
  }

  private hitRows(ids: number[]): HitRow[] {
    return statement(
      this.db,
      `SELECT s.id, s.transcript_id, t.title, s.position, s.start_ms, s.end_ms, s.speaker, sp.name AS speaker_name, s.text
         FROM sentences s JOIN transcripts t ON t.id = s.transcript_id
         LEFT JOIN speakers sp ON sp.transcript_id = s.transcript_id AND sp.label = s.speaker
         WHERE s.id IN (${ids.map(() => '?').join(',')})`,
    ).all(...ids) as HitRow[];
  }
}

function filterConditions(filters: SearchFilters): { conditions: string[]; params: Record<string, unknown> } {
  const conditions = transcriptConditions(filters);
  const params: Record<string, unknown> = {};
  if (filters.from !== undefined) params.from = filters.from;
  if (filters.to !== undefined) params.to = filters.to;
  if (filters.status) params.status = filters.status;
  if (filters.language) {
    params.language = filters.language;
    params.languagePrefix = `${filters.language.replace(/[\\%_]/g, '\\$&')}\\_%`;
  }
  return { conditions, params };
}

/** The filters that keep or drop whole transcripts (`t`), with the parameters `filterConditions` sets. */
function transcriptConditions(filters: SearchFilters): string[] {
  const conditions: string[] = [];
  if (filters.from !== undefined) conditions.push('t.created_at >= @from');
  if (filters.to !== undefined) conditions.push('t.created_at <= @to');
  if (filters.status) conditions.push('t.status = @status');
  if (filters.language)
    conditions.push("(t.language_code = @language OR t.language_code LIKE @languagePrefix ESCAPE '\\')");
  return conditions;
}
