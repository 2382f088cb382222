/**
 * Newsroom search's plans for a filtered search (issue #35, point 10).
 *
 * Search asks for the newest matches, so PostgreSQL walks an index by recording date backwards
 * and checks each sentence until it has enough. With a desk filter the index to walk is the
 * desk's own (desk, recorded_at), which reads only that desk's sentences; but PostgreSQL judges
 * an index's order on the table by its first column, and desks are interleaved on disk, so at
 * the default `random_page_cost` (4, a spinning disk's) it walked the all-desks date index
 * instead and read four times the sentences: over 1.2 million sentences, "the mayor" on one
 * desk read 233,000 sentences in 470 ms against 13,000 in 11 ms (EXPLAIN ANALYZE, seen here).
 * Search's function therefore plans at 1.1, the cost PostgreSQL's documentation suggests when
 * the data is on solid-state storage or mostly in memory, as a newsroom archive's recent
 * sentences, the ones search reads, are. Only this function plans so: the server's own setting,
 * which an administrator may have tuned, is left as it is.
 */
export const sql = `
ALTER FUNCTION verbatim.visible_matches(tsquery, text, name, timestamptz, timestamptz, text, text, integer)
  SET random_page_cost = 1.1;
`;
