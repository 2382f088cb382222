/**
 * Stories an editor reviews (issue #36, point 2), offline first: everything the user does is
 * written here before it is sent, and what the newsroom holds is kept here, so the stories, their
 * comments and approvals read (and are added to) without a network. Each row says which newsroom
 * (its address with the user's login) it belongs to, so a library that changes newsroom keeps
 * each one's apart.
 *
 * - `story_shares`: the user's stories shared, with the desk, the revision asked and the one the
 *   newsroom took, the digest of what was sent last (a story that changed since is shared again
 *   as the next revision), and why the newsroom refused it, if it did.
 * - `story_reviews`: every shared story the user can see (their own and, as an editor, their
 *   desk's), as last read: the editor's offline copy.
 * - `story_review_comments`: comments and replies, with whether the comment, or its resolve,
 *   still waits to be sent.
 * - `story_review_approvals`: one per quote, with whether it waits to be sent.
 * - `story_review_cursors`: where the next pull from each newsroom starts.
 */
export const sql = `
CREATE TABLE story_shares (
  newsroom TEXT NOT NULL,
  story_id INTEGER NOT NULL,
  desk TEXT NOT NULL,
  revision_asked INTEGER NOT NULL CHECK (revision_asked > 0),
  revision_sent INTEGER NOT NULL DEFAULT 0 CHECK (revision_sent >= 0),
  sent_digest TEXT,
  error TEXT,
  PRIMARY KEY (newsroom, story_id)
);
CREATE TABLE story_reviews (
  newsroom TEXT NOT NULL,
  story_key TEXT NOT NULL,
  reporter TEXT NOT NULL,
  story_id INTEGER NOT NULL,
  desk TEXT NOT NULL,
  title TEXT NOT NULL,
  revision INTEGER NOT NULL,
  items_json TEXT NOT NULL,
  shared_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (newsroom, story_key)
);
CREATE TABLE story_review_comments (
  id TEXT PRIMARY KEY,
  newsroom TEXT NOT NULL,
  story_key TEXT NOT NULL,
  author TEXT NOT NULL,
  anchor_json TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('comment', 'change-request')),
  body TEXT NOT NULL,
  reply_to TEXT,
  created_at INTEGER NOT NULL,
  resolved_by TEXT,
  resolved_at INTEGER,
  comment_waiting INTEGER NOT NULL DEFAULT 0 CHECK (comment_waiting IN (0, 1)),
  resolve_waiting INTEGER NOT NULL DEFAULT 0 CHECK (resolve_waiting IN (0, 1))
);
CREATE INDEX story_review_comments_by_story ON story_review_comments (newsroom, story_key, created_at);
CREATE INDEX story_review_comments_waiting ON story_review_comments (newsroom)
  WHERE comment_waiting = 1 OR resolve_waiting = 1;
CREATE TABLE story_review_approvals (
  newsroom TEXT NOT NULL,
  story_key TEXT NOT NULL,
  quote_key TEXT NOT NULL,
  approved_by TEXT NOT NULL,
  approved_at INTEGER NOT NULL,
  withdrawn INTEGER NOT NULL CHECK (withdrawn IN (0, 1)),
  waiting INTEGER NOT NULL DEFAULT 0 CHECK (waiting IN (0, 1)),
  PRIMARY KEY (newsroom, story_key, quote_key)
);
CREATE TABLE story_review_cursors (
  newsroom TEXT PRIMARY KEY,
  cursor TEXT NOT NULL
);
`;
