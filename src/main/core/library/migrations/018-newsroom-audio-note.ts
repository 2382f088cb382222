/**
 * Publishing a transcript's audio to the newsroom (issue #35, point 4): `audio_note` says, in
 * sentences, what of its audio did not go with a publication and why (its recording moved, a
 * highlight past the recording's end), so the library shows it beside 'published'.
 */
export const sql = `
ALTER TABLE newsroom_publications ADD COLUMN audio_note TEXT;
`;
