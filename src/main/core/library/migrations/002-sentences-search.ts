/**
 * Sentences and paragraphs as the service exported them, and a full-text index over sentence
 * text kept in step by triggers (an external-content FTS5 table: the text is stored once).
 */
export const sql = `
CREATE TABLE sentences (
  id            INTEGER PRIMARY KEY,
  transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
  position      INTEGER NOT NULL,
  start_ms      INTEGER NOT NULL,
  end_ms        INTEGER NOT NULL,
  speaker       TEXT,
  confidence    REAL,
  text          TEXT NOT NULL,
  words_json    TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX sentences_by_transcript ON sentences (transcript_id, position);

CREATE TABLE paragraphs (
  id            INTEGER PRIMARY KEY,
  transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
  position      INTEGER NOT NULL,
  start_ms      INTEGER NOT NULL,
  end_ms        INTEGER NOT NULL,
  speaker       TEXT,
  confidence    REAL,
  text          TEXT NOT NULL,
  words_json    TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX paragraphs_by_transcript ON paragraphs (transcript_id, position);

CREATE VIRTUAL TABLE sentences_fts USING fts5 (
  text,
  content = 'sentences',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER sentences_fts_insert AFTER INSERT ON sentences BEGIN
  INSERT INTO sentences_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER sentences_fts_delete AFTER DELETE ON sentences BEGIN
  INSERT INTO sentences_fts (sentences_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER sentences_fts_update AFTER UPDATE OF text ON sentences BEGIN
  INSERT INTO sentences_fts (sentences_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO sentences_fts (rowid, text) VALUES (new.id, new.text);
END;
`;
