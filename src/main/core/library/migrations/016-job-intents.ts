/**
 * What one process asks of the process that sends the folder's jobs (issue #32):
 * `delete_remotely` — the journalist deleted a transcript while the service was still making
 * it; the sender deletes it there once the service allows (it refuses while it works) and
 * then here, so nothing is left billed and untracked. `upload_holder` and
 * `upload_lease_until` — which process is sending the recording now, renewed while it sends,
 * so a process that takes over the folder does not start the same upload again.
 */
export const sql = `
ALTER TABLE transcripts ADD COLUMN delete_remotely INTEGER NOT NULL DEFAULT 0 CHECK (delete_remotely IN (0, 1));
ALTER TABLE transcripts ADD COLUMN upload_holder TEXT;
ALTER TABLE transcripts ADD COLUMN upload_lease_until INTEGER;
`;
