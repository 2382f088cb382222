/**
 * The journalist's corrections, stored beside the service's words and never over them. The
 * `sentences` table holds the transcript as corrected (so search, exports and the tools read
 * it unchanged); `machine_sentences` keeps the service's sentences, copied there when the
 * first edit is made, so "show the machine transcript" and "revert" never need the service.
 * Each edit is a row of `transcript_edits` with the sentence changes that made it, so undo and
 * redo survive a restart. `paragraph_checks` records which paragraphs were checked against the
 * audio, and when.
 */
export const sql = `
CREATE TABLE machine_sentences (
  transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
  position      INTEGER NOT NULL,
  start_ms      INTEGER NOT NULL,
  end_ms        INTEGER NOT NULL,
  speaker       TEXT,
  confidence    REAL,
  text          TEXT NOT NULL,
  words_json    TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (transcript_id, position)
);

CREATE TABLE transcript_edits (
  id            INTEGER PRIMARY KEY,
  transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
  kind          TEXT NOT NULL,
  summary       TEXT NOT NULL,
  steps_json    TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  undone_at     INTEGER
);
CREATE INDEX transcript_edits_by_transcript ON transcript_edits (transcript_id, id);

CREATE TABLE paragraph_checks (
  transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
  paragraph     INTEGER NOT NULL,
  checked_at    INTEGER NOT NULL,
  PRIMARY KEY (transcript_id, paragraph)
);

-- Goes up with every edit, undo and redo, so an edit made against an older state is refused.
ALTER TABLE transcripts ADD COLUMN corrections_revision INTEGER NOT NULL DEFAULT 0;
`;
