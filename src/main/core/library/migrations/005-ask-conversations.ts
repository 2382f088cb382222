/**
 * Ask conversations, one per transcript: every question, tool call and answer in order, each
 * kept as the JSON of its entry (the shape is checked with zod when read back), and gone with
 * the transcript.
 */
export const sql = `
CREATE TABLE ask_entries (
  id            INTEGER PRIMARY KEY,
  transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
  kind          TEXT NOT NULL CHECK (kind IN ('question', 'tool', 'answer')),
  created_at    INTEGER NOT NULL,
  entry_json    TEXT NOT NULL
);
CREATE INDEX ask_entries_by_transcript ON ask_entries (transcript_id, id);
`;
