import type { SearchFilters } from '../../../shared/library';

/**
 * The filter terms each sentence carries in the search index (migration 12): its transcript's
 * tags, its speaker's label and name, each one token. A tag or speaker filter is then a term of
 * the full-text query, intersected inside FTS5 with the journalist's words.
 */

/**
 * A new sentence's facets, computed in SQL from its transcript (`@transcript`) and speaker
 * (`@speaker`) exactly as migration 12's triggers compute them, so a sentence inserted now and
 * one rewritten by a trigger later carry the same terms (migrations.test.ts checks both).
 */
export const newSentenceFacetsSql = `trim(
  coalesce((SELECT group_concat('xt' || hex(lower(tt.tag)), ' ') FROM transcript_tags tt
            WHERE tt.transcript_id = @transcript), '')
  || CASE WHEN @speaker IS NULL THEN '' ELSE ' xl' || hex(@speaker)
     || coalesce((SELECT ' xn' || hex(lower(sp.name)) FROM speakers sp
                  WHERE sp.transcript_id = @transcript AND sp.label = @speaker
                    AND sp.name IS NOT NULL AND sp.name <> ''), '') END)`;

/** SQLite's lower() and NOCASE fold ASCII letters only; the terms are made with it, so queries are too. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** A value as SQLite's hex() writes its UTF-8: one token whatever its characters. */
function hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex').toUpperCase();
}

/**
 * The filters that become index terms, as an FTS5 expression on the `facets` column, or
 * undefined without any: a tag (ignoring case, as tags are kept), and a speaker by label ("A")
 * or by name (ignoring case).
 */
export function facetQuery(filters: Pick<SearchFilters, 'tag' | 'speaker'>): string | undefined {
  const terms: string[] = [];
  if (filters.tag) terms.push(`xt${hex(asciiLower(filters.tag))}`);
  if (filters.speaker) terms.push(`(xl${hex(filters.speaker)} OR xn${hex(asciiLower(filters.speaker))})`);
  return terms.length === 0 ? undefined : `facets : (${terms.join(' AND ')})`;
}
