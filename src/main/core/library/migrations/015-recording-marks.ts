/**
 * Marked moments of a recording (issue #23): "this matters", pressed while recording, with a
 * word typed then or later. Once the recording's transcript exists, each becomes a highlight
 * on the sentence spoken at that moment (`placed` says it was handled, so a highlight the
 * journalist deletes later is not made again); a mark where nothing was said stays a mark.
 */
export const sql = `
CREATE TABLE recording_marks (
  id            INTEGER PRIMARY KEY,
  recording_id  INTEGER NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
  at_ms         INTEGER NOT NULL CHECK (at_ms >= 0),
  note          TEXT NOT NULL DEFAULT '',
  placed        INTEGER NOT NULL DEFAULT 0 CHECK (placed IN (0, 1)),
  highlight_id  INTEGER REFERENCES highlights (id) ON DELETE SET NULL
);
CREATE INDEX recording_marks_by_recording ON recording_marks (recording_id, at_ms);
`;
