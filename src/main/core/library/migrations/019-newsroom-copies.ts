/**
 * A colleague's transcript kept from the newsroom (issue #35, point 6): a read-only copy in the
 * reporter's own library, where they play, highlight and quote it. Its row says where it comes
 * from (the reporter who recorded it, their transcript's id there, the desk, the revision copied,
 * when it was kept, and the checksum of the recording downloaded with it); all NULL for the
 * reporter's own transcripts. One copy per colleague's transcript: keeping it again updates it.
 */
export const sql = `
ALTER TABLE transcripts ADD COLUMN newsroom_reporter TEXT;
ALTER TABLE transcripts ADD COLUMN newsroom_transcript_id TEXT;
ALTER TABLE transcripts ADD COLUMN newsroom_desk TEXT;
ALTER TABLE transcripts ADD COLUMN newsroom_revision INTEGER CHECK (newsroom_revision > 0);
ALTER TABLE transcripts ADD COLUMN newsroom_kept_at INTEGER;
ALTER TABLE transcripts ADD COLUMN newsroom_audio_sha256 TEXT;
CREATE UNIQUE INDEX transcripts_by_newsroom_origin ON transcripts (newsroom_reporter, newsroom_transcript_id)
  WHERE newsroom_reporter IS NOT NULL;
`;
