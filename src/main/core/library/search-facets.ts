import type { SearchFilters } from '../../../shared/library';

/**
 * The filter terms each sentence carries in the search index (migrations 12 and 14): its
 * transcript's tags, its speaker's label and name, each one token, and its transcript's recording
 * date as a year, a month and a day. A tag, speaker or date filter is then a term of the
 * full-text query, intersected inside FTS5 with the journalist's words.
 */

/**
 * A new sentence's facets, computed in SQL from its transcript (`@transcript`) and speaker
 * (`@speaker`) exactly as migration 14's view computes them, so a sentence inserted now and
 * one rewritten by a trigger later carry the same terms (migrations.test.ts checks both).
 */
export const newSentenceFacetsSql = `trim(
  coalesce((SELECT group_concat('xt' || hex(lower(tt.tag)), ' ') FROM transcript_tags tt
            WHERE tt.transcript_id = @transcript), '')
  || CASE WHEN @speaker IS NULL THEN '' ELSE ' xl' || hex(@speaker)
     || coalesce((SELECT ' xn' || hex(lower(sp.name)) FROM speakers sp
                  WHERE sp.transcript_id = @transcript AND sp.label = @speaker
                    AND sp.name IS NOT NULL AND sp.name <> ''), '') END
  || coalesce((SELECT ' xy' || strftime('%Y', t.created_at / 1000.0, 'unixepoch')
                  || ' xm' || strftime('%Y%m', t.created_at / 1000.0, 'unixepoch')
                  || ' xd' || strftime('%Y%m%d', t.created_at / 1000.0, 'unixepoch')
               FROM transcripts t WHERE t.id = @transcript), ''))`;

/** SQLite's lower() and NOCASE fold ASCII letters only; the terms are made with it, so queries are too. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** A value as SQLite's hex() writes its UTF-8: one token whatever its characters. */
function hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex').toUpperCase();
}

/** Recording dates, in milliseconds, from the first to the last (both included). */
export interface DateSpan {
  from: number;
  to: number;
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/**
 * The fewest date terms whose days cover `span` (UTC, as migration 14 writes them): whole years
 * inside it as years, whole months as months, the days at its edges as days. The edge days are
 * covered whole; the exact bounds are checked on the transcript. Empty when `from` is after `to`.
 * A decade with the most ragged ends is 90 terms, one OR inside FTS5.
 */
export function dateTerms(span: DateSpan): string[] {
  const day = (ms: number): Date => {
    const date = new Date(ms);
    return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  };
  const last = day(span.to);
  const terms: string[] = [];
  if (span.from > span.to) return terms;
  for (let cursor = day(span.from); cursor <= last;) {
    const year = cursor.getUTCFullYear();
    const month = cursor.getUTCMonth();
    const date = cursor.getUTCDate();
    const nextYear = new Date(Date.UTC(year + 1, 0, 1));
    const nextMonth = new Date(Date.UTC(year, month + 1, 1));
    if (month === 0 && date === 1 && Date.UTC(year, 11, 31) <= last.getTime()) {
      terms.push(`xy${pad(year, 4)}`);
      cursor = nextYear;
    } else if (date === 1 && nextMonth.getTime() - 86_400_000 <= last.getTime()) {
      terms.push(`xm${pad(year, 4)}${pad(month + 1, 2)}`);
      cursor = nextMonth;
    } else {
      terms.push(`xd${pad(year, 4)}${pad(month + 1, 2)}${pad(date, 2)}`);
      cursor = new Date(Date.UTC(year, month, date + 1));
    }
  }
  return terms;
}

/**
 * The filters that become index terms, as an FTS5 expression on the `facets` column, or
 * undefined without any: a tag (ignoring case, as tags are kept), a speaker by label ("A") or
 * by name (ignoring case), and a date span (`dates`, the filter's range with an open end closed
 * at the library's first or last recording). A span that covers no day matches nothing: the
 * expression is then `null`, and the search has nothing to look for.
 */
export function facetQuery(
  filters: Pick<SearchFilters, 'tag' | 'speaker'>,
  dates?: DateSpan,
): string | undefined | null {
  const terms: string[] = [];
  if (filters.tag) terms.push(`xt${hex(asciiLower(filters.tag))}`);
  if (filters.speaker) terms.push(`(xl${hex(filters.speaker)} OR xn${hex(asciiLower(filters.speaker))})`);
  if (dates) {
    const days = dateTerms(dates);
    if (days.length === 0) return null;
    terms.push(days.length === 1 ? days[0]! : `(${days.join(' OR ')})`);
  }
  return terms.length === 0 ? undefined : `facets : (${terms.join(' AND ')})`;
}
