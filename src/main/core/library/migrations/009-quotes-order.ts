/**
 * The Quotes view's order, newest recording first, then as spoken, straight from an index (issue
 * #20's "open under 150 ms, keystroke under 16 ms"). Migration 8 sorted on the transcript's
 * `created_at` through a join, so every page sorted every matching highlight first (about 90 ms
 * for the first page of 10,000). Each highlight now carries its recording's date, kept in step
 * by triggers as the transcript's own (`transcripts.created_at` is its recording date), and two
 * indexes give the page in order without a sort: one for the whole library (and the searches,
 * which walk it checking the matches), one per label (it replaces the label-only index, which
 * served only lookups the new one also serves).
 */
export const sql = `
ALTER TABLE highlights ADD COLUMN recorded_at INTEGER NOT NULL DEFAULT 0;
UPDATE highlights SET recorded_at = (SELECT t.created_at FROM transcripts t WHERE t.id = highlights.transcript_id);

CREATE INDEX highlights_in_quotes_order ON highlights (recorded_at DESC, transcript_id, start_ms, id);
DROP INDEX highlights_by_label;
CREATE INDEX highlights_by_label_in_quotes_order
  ON highlights (label_id, recorded_at DESC, transcript_id, start_ms, id);

CREATE TRIGGER highlights_recorded_at_insert AFTER INSERT ON highlights BEGIN
  UPDATE highlights SET recorded_at = (SELECT t.created_at FROM transcripts t WHERE t.id = new.transcript_id)
  WHERE id = new.id;
END;
CREATE TRIGGER highlights_recorded_at_follow AFTER UPDATE OF created_at ON transcripts BEGIN
  UPDATE highlights SET recorded_at = new.created_at WHERE transcript_id = new.id;
END;
`;
