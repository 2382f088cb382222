/**
 * Who checked a paragraph against the audio (issue #36, point 3). NULL is this library's own
 * reporter, as every stamp made before; a copy of a colleague's transcript kept from the
 * newsroom carries the colleague's stamps with their newsroom login, so a quote of it says who
 * listened to it.
 */
export const sql = `
ALTER TABLE paragraph_checks ADD COLUMN checked_by TEXT;
`;
