/**
 * Who sees and changes what in the archive, enforced by PostgreSQL itself (issue #35, point 8):
 * row-level security, ENABLEd and FORCEd on every archive table, with plain policies (no
 * SECURITY DEFINER function, so nothing runs with more rights than the person asking).
 *
 * - A transcript is visible to the members of its desk (the desk's role granted to them,
 *   `pg_has_role`); a confidential one only to its reporter and the desk's editors.
 * - Only its reporter (`current_user`) inserts, changes or deletes it, and only into a desk they
 *   are a member of.
 * - Its sentences, highlights and audio are visible exactly when the transcript is: their policy
 *   asks the transcripts table, whose own policy then applies.
 *
 * The tables are granted to PUBLIC only for the statements the archive runs; the policies decide
 * which rows. The administrator (the database's owner, a superuser) is not bound by them.
 */
const isMemberOfDesk = (desk: string) => `EXISTS (
    SELECT 1 FROM verbatim.desks d
    WHERE d.name = ${desk} AND pg_has_role(current_user, d.role_name, 'MEMBER'))`;

const isEditorOfDesk = (desk: string) => `EXISTS (
    SELECT 1 FROM verbatim.desk_members m JOIN verbatim.desks d ON d.name = m.desk
    WHERE m.desk = ${desk} AND m.member = current_user AND m.role = 'editor'
      AND pg_has_role(current_user, d.role_name, 'MEMBER'))`;

const transcriptIsVisible = (table: string) => `EXISTS (
    SELECT 1 FROM verbatim.published_transcripts t
    WHERE t.reporter = ${table}.reporter AND t.transcript_id = ${table}.transcript_id)`;

const partsOfATranscript = ['published_sentences', 'published_highlights', 'published_audio_chunks'];

export const sql = `
${[...partsOfATranscript, 'published_transcripts', 'withdrawn_transcripts', 'archive_settings']
  .map(
    (table) => `ALTER TABLE verbatim.${table} ENABLE ROW LEVEL SECURITY;
ALTER TABLE verbatim.${table} FORCE ROW LEVEL SECURITY;`,
  )
  .join('\n')}

CREATE POLICY visible_to_its_desk ON verbatim.published_transcripts FOR SELECT
  USING (reporter = current_user OR (${isMemberOfDesk('published_transcripts.desk')}
    AND (NOT confidential OR ${isEditorOfDesk('published_transcripts.desk')})));
CREATE POLICY published_by_its_reporter ON verbatim.published_transcripts FOR INSERT
  WITH CHECK (reporter = current_user AND ${isMemberOfDesk('published_transcripts.desk')});
CREATE POLICY changed_by_its_reporter ON verbatim.published_transcripts FOR UPDATE
  USING (reporter = current_user)
  WITH CHECK (reporter = current_user AND ${isMemberOfDesk('published_transcripts.desk')});
CREATE POLICY unpublished_by_its_reporter ON verbatim.published_transcripts FOR DELETE
  USING (reporter = current_user);
GRANT SELECT, INSERT, UPDATE, DELETE ON verbatim.published_transcripts TO PUBLIC;

${partsOfATranscript
  .map(
    (table) => `CREATE POLICY visible_with_its_transcript ON verbatim.${table} FOR SELECT
  USING (${transcriptIsVisible(table)});
CREATE POLICY written_by_its_reporter ON verbatim.${table} FOR INSERT
  WITH CHECK (reporter = current_user);
CREATE POLICY changed_by_its_reporter ON verbatim.${table} FOR UPDATE
  USING (reporter = current_user) WITH CHECK (reporter = current_user);
CREATE POLICY removed_by_its_reporter ON verbatim.${table} FOR DELETE
  USING (reporter = current_user);`,
  )
  .join('\n')}
GRANT SELECT, INSERT, DELETE ON verbatim.published_sentences, verbatim.published_highlights TO PUBLIC;
-- UPDATE: a new revision with the same recording keeps its chunks, moved to the new revision.
GRANT SELECT, INSERT, UPDATE, DELETE ON verbatim.published_audio_chunks TO PUBLIC;

CREATE POLICY only_its_reporter ON verbatim.withdrawn_transcripts FOR ALL
  USING (reporter = current_user) WITH CHECK (reporter = current_user);
GRANT SELECT, INSERT, UPDATE, DELETE ON verbatim.withdrawn_transcripts TO PUBLIC;

CREATE POLICY read_by_everyone ON verbatim.archive_settings FOR SELECT USING (true);
GRANT SELECT ON verbatim.archive_settings TO PUBLIC;
`;
