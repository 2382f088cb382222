import type { Db } from './database';
import type { SearchFilters, SearchHit, SearchPage } from '../../../shared/library';
import { highlight, queryTerms, toFtsQuery, type QueryTerms } from './fts-query';

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
  where: string;
  values: Record<string, unknown>;
}

const joins = `JOIN sentences s ON s.id = sentences_fts.rowid
        JOIN transcripts t ON t.id = s.transcript_id
        LEFT JOIN speakers sp ON sp.transcript_id = s.transcript_id AND sp.label = s.speaker`;

/**
 * Ranked full-text search over every sentence, with highlighted snippets. Any input is a
 * valid query: what cannot be searched for simply finds nothing. The matches are counted first,
 * up to one past `countCap` (cheap: the count stops there), and the count decides the ranking:
 * - at most `countCap` matches: every match ranked by relevance (FTS5's bm25);
 * - more: the `countCap` most recent matches (the newest sentences of the library: the index
 *   walks its rows newest first and stops) ranked by relevance among themselves, and the page
 *   says so (`ranking: 'recent'`), so the UI can show "best of the 1,000 most recent".
 * bm25 over every match of a word in half the library took 430 ms at 1,000 hours and grows with
 * the library; over the newest thousand it costs the same at any size. A journalist searching
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
    const match = toFtsQuery(query);
    if (!match) return { hits: [], total: 0, totalIsLowerBound: false, ranking: 'relevance', limit, offset };
    const { conditions, params } = filterConditions(filters);
    const q: SearchQuery = {
      filtered: conditions.length > 0,
      where: ['sentences_fts MATCH @match', ...conditions].join(' AND '),
      values: { ...params, match, limit, offset, cap: countCap + 1, window: countCap },
    };
    const total = this.count(q);
    const ranking = total > countCap ? 'recent' : 'relevance';
    const hits = this.hits(this.rank(q, ranking), queryTerms(query));
    return {
      hits,
      total: Math.min(total, countCap),
      totalIsLowerBound: total > countCap,
      ranking,
      limit,
      offset,
    };
  }

  /** The page's sentence ids, best first: among every match, or among the most recent `countCap`. */
  private rank(q: SearchQuery, ranking: SearchPage['ranking']): { id: number; rank: number }[] {
    const from = q.filtered ? `sentences_fts ${joins}` : 'sentences_fts';
    const sql =
      ranking === 'relevance'
        ? `SELECT sentences_fts.rowid AS id, bm25(sentences_fts) AS rank FROM ${from} WHERE ${q.where}
           ORDER BY rank, id LIMIT @limit OFFSET @offset`
        : `SELECT id, rank FROM (
             SELECT sentences_fts.rowid AS id, bm25(sentences_fts) AS rank FROM ${from} WHERE ${q.where}
             ORDER BY sentences_fts.rowid DESC LIMIT @window)
           ORDER BY rank, id DESC LIMIT @limit OFFSET @offset`;
    return this.db.prepare(sql).all(q.values) as { id: number; rank: number }[];
  }

  /** Every match, counted up to one past the cap. */
  private count(q: SearchQuery): number {
    const sql = q.filtered
      ? `SELECT count(*) AS n FROM (SELECT 1 FROM sentences_fts ${joins} WHERE ${q.where} LIMIT @cap)`
      : 'SELECT count(*) AS n FROM (SELECT 1 FROM sentences_fts WHERE sentences_fts MATCH @match LIMIT @cap)';
    return (this.db.prepare(sql).get(q.values) as { n: number }).n;
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
    return this.db
      .prepare(
        `SELECT s.id, s.transcript_id, t.title, s.position, s.start_ms, s.end_ms, s.speaker, sp.name AS speaker_name, s.text
         FROM sentences s JOIN transcripts t ON t.id = s.transcript_id
         LEFT JOIN speakers sp ON sp.transcript_id = s.transcript_id AND sp.label = s.speaker
         WHERE s.id IN (${ids.map(() => '?').join(',')})`,
      )
      .all(...ids) as HitRow[];
  }
}

function filterConditions(filters: SearchFilters): { conditions: string[]; params: Record<string, unknown> } {
  const conditions: string[] = [];
  const params: Record<string, unknown> = {};
  if (filters.from !== undefined) {
    conditions.push('t.created_at >= @from');
    params.from = filters.from;
  }
  if (filters.to !== undefined) {
    conditions.push('t.created_at <= @to');
    params.to = filters.to;
  }
  if (filters.status) {
    conditions.push('t.status = @status');
    params.status = filters.status;
  }
  if (filters.language) {
    conditions.push("(t.language_code = @language OR t.language_code LIKE @languagePrefix ESCAPE '\\')");
    params.language = filters.language;
    params.languagePrefix = `${filters.language.replace(/[\\%_]/g, '\\$&')}\\_%`;
  }
  if (filters.tag) {
    conditions.push(
      'EXISTS (SELECT 1 FROM transcript_tags tt WHERE tt.transcript_id = t.id AND tt.tag = @tag)',
    );
    params.tag = filters.tag;
  }
  if (filters.speaker) {
    conditions.push('(s.speaker = @speaker OR sp.name = @speaker COLLATE NOCASE)');
    params.speaker = filters.speaker;
  }
  return { conditions, params };
}
