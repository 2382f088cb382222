/**
 * Recordings made in Verbatim (issue #23). A recording is registered the moment it starts,
 * wherever its file is written, with the process recording it: a start that finds one still
 * `recording` whose process is gone repairs its file (crash-safe-wav.ts) and marks it
 * `recovered`, or `missing` when the file went with the crash. A transcript made from it keeps
 * the link; deleting the transcript leaves the recording.
 */
export const sql = `
CREATE TABLE recordings (
  id             INTEGER PRIMARY KEY,
  path           TEXT NOT NULL UNIQUE,
  started_at     INTEGER NOT NULL,
  ended_at       INTEGER,
  sample_rate    INTEGER NOT NULL CHECK (sample_rate BETWEEN 8000 AND 192000),
  channels       INTEGER NOT NULL CHECK (channels IN (1, 2)),
  status         TEXT NOT NULL CHECK (status IN ('recording', 'finished', 'recovered', 'missing')),
  duration_ms    INTEGER NOT NULL DEFAULT 0,
  process_id     INTEGER NOT NULL,
  transcript_id  TEXT REFERENCES transcripts (id) ON DELETE SET NULL
);
CREATE INDEX recordings_unfinished ON recordings (status) WHERE status = 'recording';
`;
