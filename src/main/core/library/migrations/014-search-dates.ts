/**
 * A date filter answered by the sentence index (issue #22). Migration 12 made tags and speakers
 * terms of the index; a date range was still a bound on sentence ids, and FTS5 reaches a bound
 * inside a word's list of sentences by reading every entry before it: "the" with a week in the
 * middle of 10,000 hours read half its 6 million entries (about 200 ms). Intersecting with terms
 * costs what the terms hold instead.
 *
 * Each sentence's `facets` gain its transcript's recording date (`transcripts.created_at`) as
 * three terms, UTC: `xy2026` (year), `xm202611` (month) and `xd20261125` (day). A range becomes
 * the fewest of them that cover it (search-facets.ts), and the exact bounds are still checked on
 * the transcript. The view that says what a sentence's facets are is made again with them, a
 * trigger follows a changed recording date, and the index is rebuilt once from the rewritten
 * column (its update trigger is dropped meanwhile: one rebuild, not six million updates).
 */
export const sql = `
DROP VIEW sentence_facet_values;
CREATE VIEW sentence_facet_values AS
SELECT s.id, trim(
  coalesce((SELECT group_concat('xt' || hex(lower(tt.tag)), ' ') FROM transcript_tags tt
            WHERE tt.transcript_id = s.transcript_id), '')
  || CASE WHEN s.speaker IS NULL THEN '' ELSE ' xl' || hex(s.speaker)
     || coalesce((SELECT ' xn' || hex(lower(sp.name)) FROM speakers sp
                  WHERE sp.transcript_id = s.transcript_id AND sp.label = s.speaker
                    AND sp.name IS NOT NULL AND sp.name <> ''), '') END
  || coalesce((SELECT ' xy' || strftime('%Y', t.created_at / 1000.0, 'unixepoch')
                  || ' xm' || strftime('%Y%m', t.created_at / 1000.0, 'unixepoch')
                  || ' xd' || strftime('%Y%m%d', t.created_at / 1000.0, 'unixepoch')
               FROM transcripts t WHERE t.id = s.transcript_id), '')) AS facets
FROM sentences s;

DROP TRIGGER sentences_fts_update;
UPDATE sentences SET facets = (SELECT v.facets FROM sentence_facet_values v WHERE v.id = sentences.id);
INSERT INTO sentences_fts (sentences_fts) VALUES ('rebuild');
CREATE TRIGGER sentences_fts_update AFTER UPDATE OF text, facets ON sentences BEGIN
  INSERT INTO sentences_fts (sentences_fts, rowid, text, facets) VALUES ('delete', old.id, old.text, old.facets);
  INSERT INTO sentences_fts (rowid, text, facets) VALUES (new.id, new.text, new.facets);
END;

CREATE TRIGGER sentence_facets_recorded_at AFTER UPDATE OF created_at ON transcripts BEGIN
  UPDATE sentences SET facets = (SELECT v.facets FROM sentence_facet_values v WHERE v.id = sentences.id)
  WHERE transcript_id = new.id;
END;
`;
