import { VerbatimError } from '../../../shared/errors';
import {
  newsroomSearchQuerySchema,
  newsroomTranscriptRefSchema,
  type MatchSpan,
  type NewsroomHit,
  type NewsroomSearchPage,
  type NewsroomSearchQuery,
  type NewsroomTranscript,
} from '../../../shared/newsroom-search';
import type { NewsroomConnection } from './newsroom-connection';

/**
 * Searching the newsroom's archive (issue #35, point 6), always as the reporter's own login, so
 * row-level security decides which sentences exist for them.
 *
 * What is typed goes to `websearch_to_tsquery('simple', …)` (quoted phrases, OR, -word), and
 * its last bare word is also matched as a prefix (`word:*`), so hits come while typing. Case is
 * folded and accents are kept, exactly as the 'simple' column was built: `unaccent` is not added,
 * because in many of a newsroom's languages an accent tells two words apart (año/ano, où/ou), and
 * a search that widens a quote to another word is worse than one that asks to be typed right.
 *
 * Ranking: relevance (`ts_rank`), then the newest recording, as a desk asking "who interviewed
 * the harbour master" expects — among the newest 200 matches, which are all of a rare word's
 * and the recent ones of a common word (ranking millions of matches of "the" took seconds).
 * Finding the newest matches of a word in one sentence in fifty (a phrase of common words, a
 * prefix such as "fer") reads fifty sentences for each: the newest 1,000 of "the mayor" took up to
 * 100 ms over 1.2 million sentences, 200 up to 22 ms (EXPLAIN ANALYZE, seen here), and 200 is
 * ten pages of hits; a search with more says "200+" and a filter or another word narrows it.
 * `verbatim.visible_matches` (migration 005) finds them with the GIN index, applying the
 * reporter's visibility itself, because row-level security keeps the index from a condition
 * whose operator is not leakproof, as `@@` is not; a desk or date filter is a B-tree index on
 * the sentence (migration 004). The page's sentences are then read under row-level security by
 * their keys, and their transcripts joined only for the page shown. Matched words are located in
 * TypeScript, not by `ts_headline`.
 */

/** Matches are counted, and ranked, up to this many, so a very common word does not count millions. */
export const newsroomTotalCap = 200;

/**
 * The word typed last, to match as a prefix too: a bare word at the end, not in an open quote,
 * not negated, not "or" (websearch's operator). Only letters, marks and digits, so quoting it as
 * a lexeme cannot break out of its quotes.
 */
export function lastWordTyped(text: string): string | null {
  const last = /(^|[\s(])([\p{L}\p{M}\p{N}]+)$/u.exec(text);
  const word = last?.[2];
  if (word === undefined || word.toLowerCase() === 'or') return null;
  const before = text.slice(0, text.length - word.length);
  return (before.match(/"/g) ?? []).length % 2 === 1 ? null : word;
}

interface Lexemes {
  exact: string[];
  prefixes: string[];
}

/** The lexemes a tsquery's text asks for, leaving out those under a NOT. */
export function positiveLexemes(tsquery: string): Lexemes {
  const found: Lexemes = { exact: [], prefixes: [] };
  // Depth of parentheses opened right after a `!`, so a negated phrase's words are left out too.
  const negatedAt: number[] = [];
  let depth = 0;
  let negateNext = false;
  for (let index = 0; index < tsquery.length; index++) {
    const character = tsquery[index];
    if (character === '!') negateNext = true;
    else if (character === '(') {
      depth++;
      if (negateNext) negatedAt.push(depth);
      negateNext = false;
    } else if (character === ')') {
      if (negatedAt.at(-1) === depth) negatedAt.pop();
      depth--;
    } else if (character === "'") {
      let lexeme = '';
      index++;
      for (; index < tsquery.length; index++) {
        if (tsquery[index] === "'" && tsquery[index + 1] === "'") {
          lexeme += "'";
          index++;
        } else if (tsquery[index] === "'") break;
        else lexeme += tsquery[index];
      }
      const prefix = tsquery.slice(index + 1).match(/^:[A-D]*\*/) !== null;
      if (!negateNext && negatedAt.length === 0) (prefix ? found.prefixes : found.exact).push(lexeme);
      negateNext = false;
    }
  }
  return found;
}

/**
 * Where `text` holds the lexemes, as its 'simple' configuration reads it: a word (a run of
 * letters, marks, digits, or a hyphenated word) equal to a lexeme, or starting with a prefix, case
 * folded, accents kept. Spans are sorted and never overlap.
 */
export function matchSpans(text: string, lexemes: Lexemes): MatchSpan[] {
  const spans: MatchSpan[] = [];
  const exact = new Set(lexemes.exact);
  const wordOrCompound = /[\p{L}\p{M}\p{N}]+(?:-[\p{L}\p{M}\p{N}]+)*/gu;
  for (const compound of text.matchAll(wordOrCompound)) {
    const start = compound.index;
    // A hyphenated word is a lexeme whole and each of its parts.
    const pieces = [{ text: compound[0], start }];
    if (compound[0].includes('-')) {
      let offset = start;
      for (const part of compound[0].split('-')) {
        pieces.push({ text: part, start: offset });
        offset += part.length + 1;
      }
    }
    for (const piece of pieces) {
      const folded = piece.text.toLowerCase();
      if (exact.has(folded) || lexemes.prefixes.some((prefix) => folded.startsWith(prefix)))
        spans.push({ start: piece.start, end: piece.start + piece.text.length });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: MatchSpan[] = [];
  for (const span of spans) {
    const previous = merged.at(-1);
    if (previous && span.start < previous.end) previous.end = Math.max(previous.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

function cursorOf(offset: number): string {
  return `after-${offset}`;
}

function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = /^after-(\d{1,7})$/.exec(cursor)?.[1];
  if (offset === undefined)
    throw new VerbatimError(
      'invalid_input',
      'This page of newsroom results is no longer valid: search again from the first page.',
    );
  return Number(offset);
}

interface MatchRow {
  reporter: string;
  transcript_id: string;
  position: number;
  recorded_ms: number;
  rank: number;
}

function keyOf(row: { reporter: string; transcript_id: string; position: number }): string {
  return JSON.stringify([row.reporter, row.transcript_id, row.position]);
}

/** Code-point order, as PostgreSQL's "C" collation would sort: the same on every machine. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface HitRow {
  reporter: string;
  desk: string;
  transcript_id: string;
  title: string;
  recorded_at: string;
  position: number;
  start_ms: string;
  end_ms: string;
  speaker: string | null;
  speaker_name: string | null;
  text: string;
}

/** Finds the sentences visible to the connection's reporter that match `query`, best first. */
export async function searchNewsroom(
  newsroom: NewsroomConnection,
  query: NewsroomSearchQuery,
): Promise<NewsroomSearchPage> {
  const parsed = newsroomSearchQuerySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new VerbatimError(
      'invalid_input',
      `This newsroom search cannot be run (${issue ? `${issue.path.join('.') || 'query'}: ${issue.message}` : 'it is malformed'}): change it and search again.`,
    );
  }
  const asked = parsed.data;
  const offset = offsetOf(asked.cursor);
  const nothing: NewsroomSearchPage = { hits: [], total: 0, totalCapped: false, nextCursor: null };
  // PostgreSQL's text cannot hold a NUL character; it separates words as a space does.
  const typed = asked.text.replaceAll(String.fromCharCode(0), ' ');
  const prefix = lastWordTyped(typed);
  // PostgreSQL parses what was typed, then its last word is rewritten into a prefix in the
  // parsed query, so it keeps its place among the operators ("harbour OR fer").
  const built = await newsroom.query<{ query: string; nodes: number }>(
    `SELECT q::text AS query, numnode(q) AS nodes FROM (SELECT CASE WHEN $2::text IS NULL
       THEN websearch_to_tsquery('simple', $1)
       ELSE ts_rewrite(websearch_to_tsquery('simple', $1), to_tsquery('simple', $2), to_tsquery('simple', $3))
       END AS q) built`,
    [typed, prefix === null ? null : `'${prefix}'`, prefix === null ? null : `'${prefix}':*`],
  );
  const tsquery = built[0];
  // Only punctuation, or nothing at all, asks for nothing: no hit, rather than an error.
  if (!tsquery || tsquery.nodes === 0) return nothing;

  const day = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  try {
    // Where the newest matches are, visible to this reporter (migration 005: the function finds
    // them with the GIN index, which row-level security would hide); one more than the count shows.
    const matches = await newsroom.query<MatchRow>(
      `SELECT reporter, transcript_id, position, (extract(epoch FROM recorded_at) * 1000)::float8 AS recorded_ms, rank
         FROM verbatim.visible_matches($1::tsquery, $2, $3, $4::timestamptz, $5::timestamptz, $6, $7, $8)`,
      [
        tsquery.query,
        asked.desk ?? null,
        asked.reporter ?? null,
        day(asked.from),
        day(asked.to),
        asked.tag ?? null,
        asked.speaker ?? null,
        newsroomTotalCap + 1,
      ],
    );
    const ranked = matches
      .slice(0, newsroomTotalCap)
      .sort(
        (a, b) =>
          b.rank - a.rank ||
          b.recorded_ms - a.recorded_ms ||
          compareText(a.reporter, b.reporter) ||
          compareText(a.transcript_id, b.transcript_id) ||
          a.position - b.position,
      );
    const page = ranked.slice(offset, offset + asked.limit);
    // The page's sentences, read under row-level security by their keys (an index the policy allows).
    const rows =
      page.length === 0
        ? []
        : await newsroom.query<HitRow>(
            `SELECT s.reporter, s.desk, s.transcript_id, t.title,
              (extract(epoch FROM s.recorded_at) * 1000)::bigint AS recorded_at, s.position, s.start_ms,
              s.end_ms, s.speaker, s.text,
              (SELECT named->>'name' FROM jsonb_array_elements(t.speakers) named
               WHERE named->>'label' = s.speaker LIMIT 1) AS speaker_name
         FROM unnest($1::name[], $2::text[], $3::integer[]) AS k(reporter, transcript_id, position)
         JOIN verbatim.published_sentences s
           ON s.reporter = k.reporter AND s.transcript_id = k.transcript_id AND s.position = k.position
         JOIN verbatim.published_transcripts t
           ON t.reporter = s.reporter AND t.transcript_id = s.transcript_id`,
            [page.map((m) => m.reporter), page.map((m) => m.transcript_id), page.map((m) => m.position)],
          );
    const byKey = new Map(rows.map((row) => [keyOf(row), row]));
    const shown = page.flatMap((match) => byKey.get(keyOf(match)) ?? []);
    const total = matches.length;
    const lexemes = positiveLexemes(tsquery.query);
    const hits: NewsroomHit[] = shown.map((row) => ({
      reporter: row.reporter,
      desk: row.desk,
      transcriptId: row.transcript_id,
      title: row.title,
      recordedAt: Number(row.recorded_at),
      sentence: {
        position: row.position,
        startMs: Number(row.start_ms),
        endMs: Number(row.end_ms),
        speaker: row.speaker,
        speakerName: row.speaker_name,
        text: row.text,
      },
      matches: matchSpans(row.text, lexemes),
    }));
    return {
      hits,
      total: Math.min(total, newsroomTotalCap),
      totalCapped: total > newsroomTotalCap,
      nextCursor: ranked.length > offset + asked.limit ? cursorOf(offset + asked.limit) : null,
    };
  } catch (error) {
    throw olderSchemaOr(error);
  }
}

/** A server whose schema predates search (no migration 004) is told so, in words. */
function olderSchemaOr(error: unknown): unknown {
  const code = (error as { details?: { code?: string }; code?: string } | null)?.code;
  if (code === '42703' || code === '42P01' || code === '42883')
    return new VerbatimError(
      'service',
      "The newsroom's archive is not ready for search yet: ask your newsroom's administrator to run `newsroom migrate` on it.",
    );
  return error;
}

interface TranscriptRow {
  reporter: string;
  transcript_id: string;
  desk: string;
  confidential: boolean;
  revision: number;
  title: string;
  recorded_at: string;
  language: string | null;
  duration_ms: string | null;
  redacted: boolean;
  audio_bytes: string | null;
  speakers: NewsroomTranscript['speakers'];
  tags: string[];
  checked_paragraphs: { paragraph: number; checkedAt: number; checkedBy?: string }[];
  paragraphs: NewsroomTranscript['paragraphs'];
}

/**
 * A published transcript, whole, as the connection's reporter may see it. One they may not see is
 * "not found", worded as one that does not exist, so a search for ids learns nothing.
 */
export async function openNewsroomTranscript(
  newsroom: NewsroomConnection,
  reporter: string,
  transcriptId: string,
): Promise<NewsroomTranscript> {
  const ref = newsroomTranscriptRefSchema.safeParse({ reporter, transcriptId });
  if (!ref.success) throw notFound(reporter, transcriptId);
  const key = [ref.data.reporter, ref.data.transcriptId];
  // One snapshot for the transcript and its parts: a publish in between cannot mix two revisions.
  return newsroom.withClient(async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const found = await client.query<TranscriptRow>(
        `SELECT reporter, transcript_id, desk, confidential, revision, title,
                (extract(epoch FROM recorded_at) * 1000)::bigint AS recorded_at, language, duration_ms,
                redacted, audio_bytes, speakers, tags, checked_paragraphs, paragraphs
         FROM verbatim.published_transcripts WHERE reporter = $1 AND transcript_id = $2`,
        key,
      );
      const row = found.rows[0];
      if (!row) throw notFound(reporter, transcriptId);
      const sentences = await client.query<{
        position: number;
        start_ms: string;
        end_ms: string;
        speaker: string | null;
        text: string;
        words: NewsroomTranscript['sentences'][number]['words'];
      }>(
        `SELECT position, start_ms, end_ms, speaker, text, words FROM verbatim.published_sentences
         WHERE reporter = $1 AND transcript_id = $2 ORDER BY position`,
        key,
      );
      const highlights = await client.query<{
        start_ms: string;
        end_ms: string;
        label: string;
        note: string;
        text: string;
        speaker: string | null;
      }>(
        `SELECT start_ms, end_ms, label, note, text, speaker FROM verbatim.published_highlights
         WHERE reporter = $1 AND transcript_id = $2 ORDER BY ordinal`,
        key,
      );
      await client.query('COMMIT');
      return {
        reporter: row.reporter,
        transcriptId: row.transcript_id,
        desk: row.desk,
        confidential: row.confidential,
        revision: row.revision,
        title: row.title,
        recordedAt: Number(row.recorded_at),
        languageCode: row.language,
        durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
        redacted: row.redacted,
        hasAudio: row.audio_bytes !== null,
        speakers: row.speakers,
        tags: row.tags,
        paragraphs: row.paragraphs,
        // Each stamp names who checked it (migration 009); the reporter published the stamps that do not.
        checkedParagraphs: row.checked_paragraphs.map((stamp) => ({
          paragraph: stamp.paragraph,
          checkedAt: stamp.checkedAt,
          checkedBy: stamp.checkedBy ?? row.reporter,
        })),
        sentences: sentences.rows.map((sentence) => ({
          position: sentence.position,
          startMs: Number(sentence.start_ms),
          endMs: Number(sentence.end_ms),
          speaker: sentence.speaker,
          text: sentence.text,
          words: sentence.words,
        })),
        highlights: highlights.rows.map((highlight) => ({
          startMs: Number(highlight.start_ms),
          endMs: Number(highlight.end_ms),
          label: highlight.label,
          note: highlight.note,
          text: highlight.text,
          speaker: highlight.speaker,
        })),
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}

function notFound(reporter: string, transcriptId: string): VerbatimError {
  return new VerbatimError(
    'not_found',
    `There is no transcript ${reporter}/${transcriptId} in the newsroom that you can see: check the reporter and the id (as newsroom search shows them).`,
  );
}
