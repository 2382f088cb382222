/** Transcripts, their tags and their speakers' names: the library's spine. */
export const sql = `
CREATE TABLE transcripts (
  id                TEXT PRIMARY KEY,
  remote_id         TEXT,
  region            TEXT NOT NULL DEFAULT 'us' CHECK (region IN ('us', 'eu')),
  title             TEXT NOT NULL,
  source_kind       TEXT NOT NULL CHECK (source_kind IN ('file', 'url')),
  source            TEXT NOT NULL,
  audio_path        TEXT,
  status            TEXT NOT NULL CHECK (status IN
                      ('uploading', 'submitting', 'queued', 'processing', 'fetching', 'completed', 'error', 'cancelled')),
  error             TEXT,
  options_json      TEXT NOT NULL DEFAULT '{}',
  transcript_json   TEXT,
  text              TEXT,
  language_code     TEXT,
  audio_duration_ms INTEGER,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  completed_at      INTEGER,
  UNIQUE (region, remote_id)
);
CREATE INDEX transcripts_by_status ON transcripts (status);
CREATE INDEX transcripts_by_created ON transcripts (created_at DESC);

CREATE TABLE transcript_tags (
  transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
  tag           TEXT NOT NULL COLLATE NOCASE,
  PRIMARY KEY (transcript_id, tag)
);
CREATE INDEX transcript_tags_by_tag ON transcript_tags (tag);

-- A speaker's name is stored once per transcript and joined wherever the label appears.
CREATE TABLE speakers (
  transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
  label         TEXT NOT NULL,
  name          TEXT NOT NULL,
  PRIMARY KEY (transcript_id, label)
);
`;
