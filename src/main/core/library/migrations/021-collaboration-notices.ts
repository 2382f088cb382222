/**
 * What working together tells the reporter (issue #36, point 4): a colleague's comment, an
 * approval, a request for a change, a glossary entry on their desk, a change of theirs that lost.
 * Kept until read (and a while after), so a notice raised while the window was closed is still
 * there, and the badge counts the unread. `key` is unique: reading the same change again (a
 * second process, a pull after a crash) raises it once.
 */
export const sql = `
CREATE TABLE collaboration_notices (
  id          INTEGER PRIMARY KEY,
  key         TEXT NOT NULL UNIQUE,
  kind        TEXT NOT NULL,
  by_user     TEXT NOT NULL,
  text        TEXT NOT NULL,
  target_json TEXT NOT NULL,
  at          INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  read_at     INTEGER
);
CREATE INDEX collaboration_notices_newest ON collaboration_notices (at DESC, id DESC);
CREATE INDEX collaboration_notices_unread ON collaboration_notices (read_at) WHERE read_at IS NULL;
`;
