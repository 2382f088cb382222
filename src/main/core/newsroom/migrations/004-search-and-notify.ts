/**
 * Newsroom search (issue #35, points 6 and 7).
 *
 * Each sentence carries its transcript's desk, recording date and confidentiality, so that:
 * - a filter by desk or by date is a B-tree index ANDed with the GIN index's bitmap, and does not
 *   fetch every sentence that holds a common word to look its transcript up;
 * - the sentences' row-level security reads the row itself, not a subquery on the transcripts
 *   (with its own policy) for each of a million matches.
 * The copies are never the reporter's to set: a trigger fills them from the transcript on every
 * insert or update of a sentence, and a change of the transcript is carried to its sentences.
 * The triggers run as the person writing (no SECURITY DEFINER), under the policies of 003: only
 * a transcript's reporter writes its sentences, and their own transcript is always visible to them.
 *
 * A change of a published transcript notifies the channel `verbatim_newsroom` so that an open
 * newsroom search runs again. Every listener gets every notification, whatever row-level security
 * would show them, so the payload is empty: not a desk, not a title, not an id.
 */
const isMemberOfDesk = `EXISTS (
    SELECT 1 FROM verbatim.desks d
    WHERE d.name = published_sentences.desk AND pg_has_role(current_user, d.role_name, 'MEMBER'))`;

const isEditorOfDesk = `EXISTS (
    SELECT 1 FROM verbatim.desk_members m JOIN verbatim.desks d ON d.name = m.desk
    WHERE m.desk = published_sentences.desk AND m.member = current_user AND m.role = 'editor'
      AND pg_has_role(current_user, d.role_name, 'MEMBER'))`;

export const sql = `
ALTER TABLE verbatim.published_sentences
  ADD COLUMN desk text,
  ADD COLUMN recorded_at timestamptz,
  ADD COLUMN confidential boolean;

UPDATE verbatim.published_sentences s
  SET desk = t.desk, recorded_at = t.recorded_at, confidential = t.confidential
  FROM verbatim.published_transcripts t
  WHERE t.reporter = s.reporter AND t.transcript_id = s.transcript_id;

ALTER TABLE verbatim.published_sentences
  ALTER COLUMN desk SET NOT NULL,
  ALTER COLUMN recorded_at SET NOT NULL,
  ALTER COLUMN confidential SET NOT NULL;

CREATE INDEX published_sentences_by_desk ON verbatim.published_sentences (desk, recorded_at);
CREATE INDEX published_sentences_by_recorded_at ON verbatim.published_sentences (recorded_at);

CREATE FUNCTION verbatim.sentence_takes_its_transcript() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t.desk, t.recorded_at, t.confidential INTO NEW.desk, NEW.recorded_at, NEW.confidential
    FROM verbatim.published_transcripts t
    WHERE t.reporter = NEW.reporter AND t.transcript_id = NEW.transcript_id;
  RETURN NEW;
END $$;
CREATE TRIGGER takes_its_transcript BEFORE INSERT OR UPDATE ON verbatim.published_sentences
  FOR EACH ROW EXECUTE FUNCTION verbatim.sentence_takes_its_transcript();

CREATE FUNCTION verbatim.transcript_carried_to_sentences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE verbatim.published_sentences s
    SET desk = NEW.desk, recorded_at = NEW.recorded_at, confidential = NEW.confidential
    WHERE s.reporter = NEW.reporter AND s.transcript_id = NEW.transcript_id;
  RETURN NULL;
END $$;
CREATE TRIGGER carried_to_sentences AFTER UPDATE OF desk, recorded_at, confidential
  ON verbatim.published_transcripts FOR EACH ROW
  WHEN (OLD.desk IS DISTINCT FROM NEW.desk OR OLD.recorded_at IS DISTINCT FROM NEW.recorded_at
        OR OLD.confidential IS DISTINCT FROM NEW.confidential)
  EXECUTE FUNCTION verbatim.transcript_carried_to_sentences();
GRANT UPDATE (desk, recorded_at, confidential) ON verbatim.published_sentences TO PUBLIC;

DROP POLICY visible_with_its_transcript ON verbatim.published_sentences;
CREATE POLICY visible_with_its_transcript ON verbatim.published_sentences FOR SELECT
  USING (reporter = current_user OR (${isMemberOfDesk}
    AND (NOT confidential OR ${isEditorOfDesk})));

CREATE FUNCTION verbatim.newsroom_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('verbatim_newsroom', '');
  RETURN NULL;
END $$;
CREATE TRIGGER newsroom_changed AFTER INSERT OR UPDATE OR DELETE ON verbatim.published_transcripts
  FOR EACH STATEMENT EXECUTE FUNCTION verbatim.newsroom_changed();
`;
