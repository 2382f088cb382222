/**
 * Publishing to the newsroom archive offline first (issue #35, point 5). `newsroom_publications`
 * — one row a transcript the reporter published: where and how (desk, confidential, with its
 * audio), the last revision asked for and the last one the archive took, and what the library
 * shows beside the transcript (`state`, with the error of a refused item). `newsroom_outbox` —
 * what waits to be sent, written in the same transaction as the intent: the item as the
 * archive will apply it, the tries so far, when to try again, and the lease of the process
 * sending it now. An outbox row outlives a deleted transcript: what was asked of the archive
 * is still sent.
 */
export const sql = `
CREATE TABLE newsroom_publications (
  transcript_id TEXT PRIMARY KEY REFERENCES transcripts(id) ON DELETE CASCADE,
  desk TEXT NOT NULL,
  confidential INTEGER NOT NULL CHECK (confidential IN (0, 1)),
  with_audio INTEGER NOT NULL CHECK (with_audio IN (0, 1)),
  revision_requested INTEGER NOT NULL CHECK (revision_requested > 0),
  revision_published INTEGER CHECK (revision_published > 0),
  state TEXT NOT NULL CHECK (state IN ('waiting', 'published', 'failed', 'unpublishing', 'unpublished')),
  error TEXT,
  updated_at INTEGER NOT NULL
);
CREATE TABLE newsroom_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  transcript_id TEXT NOT NULL,
  revision INTEGER NOT NULL CHECK (revision > 0),
  item_json TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  lease_holder TEXT,
  lease_until INTEGER
);
CREATE UNIQUE INDEX newsroom_outbox_one_per_transcript ON newsroom_outbox (transcript_id);
CREATE INDEX newsroom_outbox_due ON newsroom_outbox (next_attempt_at, id);
`;
