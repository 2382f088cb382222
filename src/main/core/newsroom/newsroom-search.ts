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
 * the harbour master" expects. The GIN index finds the sentences; a desk or date filter is a
 * B-tree index ANDed with it on the sentence itself (migration 004), and the transcripts are
 * joined only for the page shown. Matched words are located in TypeScript, not by `ts_headline`.
 */

/** Matches are counted up to this many, so a very common word does not count millions. */
export const newsroomTotalCap = 1000;

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

  const values: unknown[] = [tsquery.query];
  const parameter = (value: unknown) => `$${values.push(value)}`;
  const filters = ['s.search @@ $1::tsquery'];
  if (asked.desk !== undefined) filters.push(`s.desk = ${parameter(asked.desk)}`);
  if (asked.reporter !== undefined) filters.push(`s.reporter = ${parameter(asked.reporter)}`);
  if (asked.from !== undefined)
    filters.push(`s.recorded_at >= to_timestamp(${parameter(asked.from)}::double precision / 1000)`);
  if (asked.to !== undefined)
    filters.push(`s.recorded_at < to_timestamp(${parameter(asked.to)}::double precision / 1000)`);
  if (asked.tag !== undefined)
    filters.push(`EXISTS (SELECT 1 FROM verbatim.published_transcripts t
      WHERE t.reporter = s.reporter AND t.transcript_id = s.transcript_id AND ${parameter(asked.tag)} = ANY (t.tags))`);
  if (asked.speaker !== undefined) {
    const speaker = parameter(asked.speaker);
    filters.push(`(s.speaker = ${speaker} OR EXISTS (SELECT 1 FROM verbatim.published_transcripts t,
        jsonb_array_elements(t.speakers) named
      WHERE t.reporter = s.reporter AND t.transcript_id = s.transcript_id
        AND named->>'label' = s.speaker AND lower(named->>'name') = lower(${speaker})))`);
  }
  const where = filters.join(' AND ');
  const order = 'rank DESC, recorded_at DESC, reporter, transcript_id, position';

  try {
    const counted = await newsroom.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM (SELECT 1 FROM verbatim.published_sentences s WHERE ${where} LIMIT ${newsroomTotalCap + 1}) capped`,
      values,
    );
    const rows = await newsroom.query<HitRow>(
      `WITH matched AS (
         SELECT s.reporter, s.transcript_id, s.position, s.desk, s.recorded_at, s.start_ms, s.end_ms,
                s.speaker, s.text, ts_rank(s.search, $1::tsquery) AS rank
         FROM verbatim.published_sentences s WHERE ${where}
         ORDER BY ${order} LIMIT ${parameter(asked.limit + 1)} OFFSET ${parameter(offset)})
       SELECT m.reporter, m.desk, m.transcript_id, t.title,
              (extract(epoch FROM m.recorded_at) * 1000)::bigint AS recorded_at, m.position, m.start_ms,
              m.end_ms, m.speaker, m.text,
              (SELECT named->>'name' FROM jsonb_array_elements(t.speakers) named
               WHERE named->>'label' = m.speaker LIMIT 1) AS speaker_name
       FROM matched m JOIN verbatim.published_transcripts t
         ON t.reporter = m.reporter AND t.transcript_id = m.transcript_id
       ORDER BY m.rank DESC, m.recorded_at DESC, m.reporter, m.transcript_id, m.position`,
      values,
    );
    const total = counted[0]?.total ?? 0;
    const lexemes = positiveLexemes(tsquery.query);
    const hits: NewsroomHit[] = rows.slice(0, asked.limit).map((row) => ({
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
      nextCursor: rows.length > asked.limit ? cursorOf(offset + asked.limit) : null,
    };
  } catch (error) {
    throw olderSchemaOr(error);
  }
}

/** A server whose schema predates search (no migration 004) is told so, in words. */
function olderSchemaOr(error: unknown): unknown {
  const code = (error as { details?: { code?: string }; code?: string } | null)?.code;
  if (code === '42703' || code === '42P01')
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
                redacted, audio_bytes, speakers, tags
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
