import { quoteCheck, type CheckStamp, type QuoteCheck } from '../../../shared/quote-check';
import type { Db } from './database';
import { statement } from './statement-cache';

/**
 * Whether each quote (a highlight's span) was checked against the audio, and by whom
 * (shared/quote-check). A page of the Quotes view or a story reads the stamps of its quotes'
 * transcripts in one query, and the paragraphs' starts in a second, only of the transcripts
 * that have stamps: most have none, and a quote of those is simply not checked.
 */
export function checksOfQuotes(
  db: Db,
  quotes: readonly { transcriptId: string; startMs: number; endMs: number }[],
): (QuoteCheck | null)[] {
  if (quotes.length === 0) return [];
  const transcripts = JSON.stringify([...new Set(quotes.map((quote) => quote.transcriptId))]);
  const stamps = groupBy(
    statement(
      db,
      `SELECT transcript_id, paragraph, checked_at, checked_by FROM paragraph_checks
         WHERE transcript_id IN (SELECT value FROM json_each(?))`,
    ).all(transcripts) as {
      transcript_id: string;
      paragraph: number;
      checked_at: number;
      checked_by: string | null;
    }[],
    (row): CheckStamp => ({ paragraph: row.paragraph, checkedAt: row.checked_at, checkedBy: row.checked_by }),
  );
  if (stamps.size === 0) return quotes.map(() => null);
  const paragraphs = groupBy(
    statement(
      db,
      `SELECT transcript_id, start_ms FROM paragraphs
         WHERE transcript_id IN (SELECT value FROM json_each(?)) ORDER BY transcript_id, position`,
    ).all(JSON.stringify([...stamps.keys()])) as { transcript_id: string; start_ms: number }[],
    (row) => ({ startMs: row.start_ms }),
  );
  return quotes.map((quote) => {
    const stamped = stamps.get(quote.transcriptId);
    return stamped ? quoteCheck(quote, paragraphs.get(quote.transcriptId) ?? [], stamped) : null;
  });
}

function groupBy<Row extends { transcript_id: string }, T>(
  rows: Row[],
  map: (row: Row) => T,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.transcript_id);
    if (group) group.push(map(row));
    else groups.set(row.transcript_id, [map(row)]);
  }
  return groups;
}
