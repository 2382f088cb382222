/**
 * Highlights and stories (see src/shared/highlights.ts). A highlight is a time span of one
 * transcript with a label and a note; `words_text` holds the words it covers as corrected now
 * (kept up to date when a correction changes them) so the Quotes view can search highlighted
 * words and notes through their own FTS5 index, kept in step by triggers as migration 2 does.
 * Labels start as Quote, Check and Background. A story's quote item keeps a snapshot of what it
 * showed, so it can outlive its transcript as text when the journalist chooses to.
 */
export const sql = `
CREATE TABLE highlight_labels (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE COLLATE NOCASE,
  color    TEXT NOT NULL CHECK (color IN ('yellow', 'red', 'blue', 'green', 'purple')),
  position INTEGER NOT NULL
);
INSERT INTO highlight_labels (name, color, position) VALUES
  ('Quote', 'yellow', 0), ('Check', 'red', 1), ('Background', 'blue', 2);

CREATE TABLE highlights (
  id            INTEGER PRIMARY KEY,
  transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
  start_ms      INTEGER NOT NULL,
  end_ms        INTEGER NOT NULL CHECK (end_ms > start_ms),
  label_id      INTEGER NOT NULL REFERENCES highlight_labels (id),
  note          TEXT NOT NULL DEFAULT '',
  words_text    TEXT NOT NULL DEFAULT '',
  speaker       TEXT,
  missing       INTEGER NOT NULL DEFAULT 0,
  created_at    INTEGER NOT NULL
);
CREATE INDEX highlights_by_transcript ON highlights (transcript_id, start_ms);
CREATE INDEX highlights_by_label ON highlights (label_id);

CREATE VIRTUAL TABLE highlights_fts USING fts5 (
  words_text,
  note,
  content = 'highlights',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER highlights_fts_insert AFTER INSERT ON highlights BEGIN
  INSERT INTO highlights_fts (rowid, words_text, note) VALUES (new.id, new.words_text, new.note);
END;
CREATE TRIGGER highlights_fts_delete AFTER DELETE ON highlights BEGIN
  INSERT INTO highlights_fts (highlights_fts, rowid, words_text, note) VALUES ('delete', old.id, old.words_text, old.note);
END;
CREATE TRIGGER highlights_fts_update AFTER UPDATE OF words_text, note ON highlights BEGIN
  INSERT INTO highlights_fts (highlights_fts, rowid, words_text, note) VALUES ('delete', old.id, old.words_text, old.note);
  INSERT INTO highlights_fts (rowid, words_text, note) VALUES (new.id, new.words_text, new.note);
END;

CREATE TABLE stories (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE COLLATE NOCASE,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE story_items (
  id            INTEGER PRIMARY KEY,
  story_id      INTEGER NOT NULL REFERENCES stories (id) ON DELETE CASCADE,
  position      INTEGER NOT NULL,
  kind          TEXT NOT NULL CHECK (kind IN ('quote', 'text')),
  -- A quote's highlight; NULL for text, and for a quote kept as text after its transcript went.
  highlight_id  INTEGER REFERENCES highlights (id) ON DELETE SET NULL,
  text          TEXT NOT NULL DEFAULT '',
  snapshot_json TEXT
);
CREATE INDEX story_items_by_story ON story_items (story_id, position);
CREATE INDEX story_items_by_highlight ON story_items (highlight_id);
`;
