/**
 * What the polling scheduler needs to resume any job after a crash: the upload URL (the
 * unique key that finds a transcript created just before a crash), when to look next, how
 * many looks so far, and upload progress.
 */
export const sql = `
ALTER TABLE transcripts ADD COLUMN upload_url TEXT;
ALTER TABLE transcripts ADD COLUMN next_check_at INTEGER;
ALTER TABLE transcripts ADD COLUMN checks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE transcripts ADD COLUMN bytes_total INTEGER;
ALTER TABLE transcripts ADD COLUMN bytes_sent INTEGER NOT NULL DEFAULT 0;
CREATE INDEX transcripts_unfinished ON transcripts (status)
  WHERE status NOT IN ('completed', 'error', 'cancelled');
`;
