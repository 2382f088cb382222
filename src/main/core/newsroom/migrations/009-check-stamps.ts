/**
 * Review stamps that mean the same words in a colleague's copy (issue #36, point 3).
 *
 * A stamp names a paragraph by its number, and a reporter's paragraphs are the transcription
 * service's, which the archive did not keep (it keeps sentences): a copy kept from the newsroom
 * made its paragraphs from the speakers' turns, so paragraph 3 there was not the reporter's
 * paragraph 3. `paragraphs` holds the published paragraphs' time spans (`[{startMs, endMs}]`),
 * from which a copy makes the same paragraphs; NULL for a revision published before, whose
 * stamps a copy cannot place and so does not take.
 *
 * Each stamp says who checked it (`checkedBy`): the login that published it, set by the archive
 * and never taken from the payload. The stamps stored before are the publishing reporter's, and
 * say so now.
 */
export const sql = `
ALTER TABLE verbatim.published_transcripts ADD COLUMN paragraphs jsonb;
UPDATE verbatim.published_transcripts
   SET checked_paragraphs = (
     SELECT coalesce(jsonb_agg(s.stamp || jsonb_build_object('checkedBy', reporter::text) ORDER BY s.n), '[]')
       FROM jsonb_array_elements(checked_paragraphs) WITH ORDINALITY AS s (stamp, n))
 WHERE jsonb_array_length(checked_paragraphs) > 0;
`;
