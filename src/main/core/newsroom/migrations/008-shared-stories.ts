/**
 * Stories an editor reviews (issue #36, point 2): a reporter shares a story with their desk's
 * editor, who comments on a quote or a passage, asks for a change, approves a quote; the reporter
 * answers and resolves.
 *
 * - `shared_stories`: the story as shared (its items as jsonb: the reporter's text and the quotes
 *   with their words, source and citation, each keyed by its item id in the reporter's library),
 *   keyed by (reporter, story id), the reporter being the login that shared it.
 * - `shared_story_clips`: each quote's sound, cut from the recording as a story's clips are; `span`
 *   says which words it is the sound of, so sharing again sends only the clips that changed.
 * - `story_comments`: id made by the commenting app (sending it again stores it once), author the
 *   login that wrote it, anchored to a quote key or a passage; resolved by the story's reporter
 *   or the comment's author (only those two columns may be updated).
 * - `story_approvals`: one per quote, written by the desk's editors only; the newest approval (by
 *   the editor's own clock, so sending it again changes nothing) wins.
 *
 * Who sees what is row-level security, ENABLEd and FORCEd, with plain policies as in 003: a story
 * is seen by its reporter and by the editors of its desk, not by the desk's other reporters (it is
 * shared with the editor, before publication); its clips, comments and approvals exactly when the
 * story is (their policies ask `shared_stories`, whose own policy then applies).
 *
 * Reading what changed: every row carries `change_xid`, the transaction that wrote it last (set
 * again on update by a trigger); a reader asks for `change_xid >= cursor` and keeps as its next
 * cursor the oldest transaction still running then, so a row that commits late is never skipped.
 * Nothing is deleted but clips (a comment or an approval stays; an approval is withdrawn), so an
 * app that was offline learns of everything. Each change notifies `verbatim_collaboration` with
 * the payload 'story' only: every listener hears it, whatever the policies would show them.
 */
const isMemberOfDesk = (desk: string) => `EXISTS (
    SELECT 1 FROM verbatim.desks d
    WHERE d.name = ${desk} AND pg_has_role(current_user, d.role_name, 'MEMBER'))`;

const isEditorOfDesk = (desk: string) => `EXISTS (
    SELECT 1 FROM verbatim.desk_members m JOIN verbatim.desks d ON d.name = m.desk
    WHERE m.desk = ${desk} AND m.member = current_user AND m.role = 'editor'
      AND pg_has_role(current_user, d.role_name, 'MEMBER'))`;

const storyIsVisible = (table: string) => `EXISTS (
    SELECT 1 FROM verbatim.shared_stories s
    WHERE s.reporter = ${table}.reporter AND s.story_id = ${table}.story_id)`;

const isEditorOfStory = (table: string) => `EXISTS (
    SELECT 1 FROM verbatim.shared_stories s
    WHERE s.reporter = ${table}.reporter AND s.story_id = ${table}.story_id
      AND ${isEditorOfDesk('s.desk')})`;

const reviewTables = ['shared_stories', 'shared_story_clips', 'story_comments', 'story_approvals'];

export const sql = `
CREATE TABLE verbatim.shared_stories (
  reporter    name NOT NULL DEFAULT current_user,
  story_id    text NOT NULL CHECK (story_id ~ '^[0-9]{1,15}$'),
  desk        text NOT NULL REFERENCES verbatim.desks (name) ON UPDATE CASCADE,
  title       text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  revision    integer NOT NULL CHECK (revision > 0),
  items       jsonb NOT NULL CHECK (jsonb_typeof(items) = 'array'),
  shared_at   timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  change_xid  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (reporter, story_id)
);

CREATE TABLE verbatim.shared_story_clips (
  reporter    name NOT NULL DEFAULT current_user,
  story_id    text NOT NULL,
  quote_key   text NOT NULL,
  span        text NOT NULL,
  mime_type   text NOT NULL,
  bytes       bytea NOT NULL,
  change_xid  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (reporter, story_id, quote_key),
  FOREIGN KEY (reporter, story_id) REFERENCES verbatim.shared_stories ON DELETE CASCADE
);

CREATE TABLE verbatim.story_comments (
  id          uuid PRIMARY KEY,
  reporter    name NOT NULL,
  story_id    text NOT NULL,
  author      name NOT NULL DEFAULT current_user,
  anchor      jsonb NOT NULL CHECK (anchor->>'kind' IN ('quote', 'passage')),
  kind        text NOT NULL CHECK (kind IN ('comment', 'change-request')),
  body        text NOT NULL CHECK (length(body) BETWEEN 1 AND 4000),
  reply_to    uuid REFERENCES verbatim.story_comments (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  resolved_by name,
  resolved_at timestamptz,
  change_xid  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  FOREIGN KEY (reporter, story_id) REFERENCES verbatim.shared_stories ON DELETE CASCADE,
  CHECK ((resolved_by IS NULL) = (resolved_at IS NULL))
);
CREATE INDEX story_comments_by_story ON verbatim.story_comments (reporter, story_id, created_at);

CREATE TABLE verbatim.story_approvals (
  reporter    name NOT NULL,
  story_id    text NOT NULL,
  quote_key   text NOT NULL,
  approved_by name NOT NULL DEFAULT current_user,
  approved_at timestamptz NOT NULL,
  withdrawn   boolean NOT NULL DEFAULT false,
  change_xid  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (reporter, story_id, quote_key),
  FOREIGN KEY (reporter, story_id) REFERENCES verbatim.shared_stories ON DELETE CASCADE
);

${reviewTables
  .map(
    (table) => `CREATE INDEX ${table}_by_change ON verbatim.${table} (change_xid);
ALTER TABLE verbatim.${table} ENABLE ROW LEVEL SECURITY;
ALTER TABLE verbatim.${table} FORCE ROW LEVEL SECURITY;`,
  )
  .join('\n')}

CREATE FUNCTION verbatim.story_review_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END $$;

CREATE FUNCTION verbatim.story_review_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('verbatim_collaboration', 'story');
  RETURN NULL;
END $$;

${reviewTables
  .map(
    (table) => `CREATE TRIGGER row_changed BEFORE UPDATE ON verbatim.${table}
  FOR EACH ROW EXECUTE FUNCTION verbatim.story_review_row_changed();
CREATE TRIGGER story_review_changed AFTER INSERT OR UPDATE OR DELETE ON verbatim.${table}
  FOR EACH STATEMENT EXECUTE FUNCTION verbatim.story_review_changed();`,
  )
  .join('\n')}

CREATE POLICY seen_by_its_reporter_and_desk_editors ON verbatim.shared_stories FOR SELECT
  USING (reporter = current_user OR ${isEditorOfDesk('shared_stories.desk')});
CREATE POLICY shared_by_its_reporter ON verbatim.shared_stories FOR INSERT
  WITH CHECK (reporter = current_user AND ${isMemberOfDesk('shared_stories.desk')});
CREATE POLICY changed_by_its_reporter ON verbatim.shared_stories FOR UPDATE
  USING (reporter = current_user)
  WITH CHECK (reporter = current_user AND ${isMemberOfDesk('shared_stories.desk')});
GRANT SELECT, INSERT, UPDATE ON verbatim.shared_stories TO PUBLIC;

CREATE POLICY seen_with_its_story ON verbatim.shared_story_clips FOR SELECT
  USING (${storyIsVisible('shared_story_clips')});
CREATE POLICY written_by_its_reporter ON verbatim.shared_story_clips FOR INSERT
  WITH CHECK (reporter = current_user);
CREATE POLICY changed_by_its_reporter ON verbatim.shared_story_clips FOR UPDATE
  USING (reporter = current_user) WITH CHECK (reporter = current_user);
CREATE POLICY removed_by_its_reporter ON verbatim.shared_story_clips FOR DELETE
  USING (reporter = current_user);
GRANT SELECT, INSERT, UPDATE, DELETE ON verbatim.shared_story_clips TO PUBLIC;

CREATE POLICY seen_with_its_story ON verbatim.story_comments FOR SELECT
  USING (${storyIsVisible('story_comments')});
CREATE POLICY written_by_who_sees_its_story ON verbatim.story_comments FOR INSERT
  WITH CHECK (author = current_user AND resolved_by IS NULL AND ${storyIsVisible('story_comments')});
CREATE POLICY resolved_by_its_reporter_or_author ON verbatim.story_comments FOR UPDATE
  USING ((reporter = current_user OR author = current_user) AND ${storyIsVisible('story_comments')})
  WITH CHECK (resolved_by = current_user);
GRANT SELECT, INSERT ON verbatim.story_comments TO PUBLIC;
GRANT UPDATE (resolved_by, resolved_at) ON verbatim.story_comments TO PUBLIC;

CREATE POLICY seen_with_its_story ON verbatim.story_approvals FOR SELECT
  USING (${storyIsVisible('story_approvals')});
CREATE POLICY given_by_its_desk_editors ON verbatim.story_approvals FOR INSERT
  WITH CHECK (approved_by = current_user AND ${isEditorOfStory('story_approvals')});
CREATE POLICY changed_by_its_desk_editors ON verbatim.story_approvals FOR UPDATE
  USING (${isEditorOfStory('story_approvals')})
  WITH CHECK (approved_by = current_user AND ${isEditorOfStory('story_approvals')});
GRANT SELECT, INSERT, UPDATE ON verbatim.story_approvals TO PUBLIC;
`;
