import { requireOwnDesk } from './newsroom-desks';
import type pg from 'pg';
import { VerbatimError } from '../../../shared/errors';
import {
  commentAnchorSchema,
  sharedStoryItemSchema,
  sharedStoryKey,
  storyCommentKindSchema,
  type CommentAnchor,
  type SharedStoryItem,
  type StoryCommentKind,
} from '../../../shared/story-review';
import { z } from 'zod';
import type { NewsroomConnection } from './newsroom-connection';

/**
 * The newsroom's side of stories an editor reviews (issue #36, point 2; migration 008). Every
 * statement runs as the user's own login, so row-level security decides what they see and may
 * write: the reporter is always `current_user` when sharing, the author when commenting, the
 * editor when approving. Every write can be sent again and changes nothing the second time
 * (ids made by the app, revisions, and the time the user acted), and each answers with the row
 * as the newsroom now holds it, which the library then keeps.
 */

/** A story as its reporter shares it. */
export interface StoryToShare {
  storyId: number;
  desk: string;
  title: string;
  revision: number;
  items: SharedStoryItem[];
}

/** A shared story as the newsroom holds it. */
export interface NewsroomSharedStory {
  key: string;
  reporter: string;
  storyId: number;
  desk: string;
  title: string;
  revision: number;
  items: SharedStoryItem[];
  sharedAt: number;
  updatedAt: number;
}

export interface NewsroomStoryComment {
  id: string;
  storyKey: string;
  author: string;
  anchor: CommentAnchor;
  kind: StoryCommentKind;
  body: string;
  replyTo: string | null;
  createdAt: number;
  resolvedBy: string | null;
  resolvedAt: number | null;
}

export interface NewsroomQuoteApproval {
  storyKey: string;
  quoteKey: string;
  by: string;
  at: number;
  withdrawn: boolean;
}

/** A comment as the app sends it: its id and words; the newsroom adds its author and time. */
export interface CommentToSend {
  id: string;
  reporter: string;
  storyId: number;
  anchor: CommentAnchor;
  kind: StoryCommentKind;
  body: string;
  replyTo: string | null;
}

/** What changed since the last pull, and the cursor to pull from next time. */
export interface StoryReviewChanges {
  cursor: string;
  stories: NewsroomSharedStory[];
  comments: NewsroomStoryComment[];
  approvals: NewsroomQuoteApproval[];
  /** Every shared story the user can see now, by key: one no longer here was taken from them. */
  visible: string[];
}

/** A cursor before every change: a first pull reads everything the user can see. */
export const firstReviewCursor = '0';

const ms = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::float8`;

const storyColumns = `reporter, story_id, desk, title, revision, items,
  ${ms('shared_at')} AS shared_at, ${ms('updated_at')} AS updated_at`;
const commentColumns = `id, reporter, story_id, author, anchor, kind, body, reply_to,
  ${ms('created_at')} AS created_at, resolved_by, ${ms('resolved_at')} AS resolved_at`;
const approvalColumns = `reporter, story_id, quote_key, approved_by, ${ms('approved_at')} AS approved_at, withdrawn`;

interface StoryRow {
  reporter: string;
  story_id: string;
  desk: string;
  title: string;
  revision: number;
  items: unknown;
  shared_at: number;
  updated_at: number;
}

interface CommentRow {
  id: string;
  reporter: string;
  story_id: string;
  author: string;
  anchor: unknown;
  kind: string;
  body: string;
  reply_to: string | null;
  created_at: number;
  resolved_by: string | null;
  resolved_at: number | null;
}

interface ApprovalRow {
  reporter: string;
  story_id: string;
  quote_key: string;
  approved_by: string;
  approved_at: number;
  withdrawn: boolean;
}

function storyOf(row: StoryRow): NewsroomSharedStory {
  return {
    key: sharedStoryKey(row.reporter, Number(row.story_id)),
    reporter: row.reporter,
    storyId: Number(row.story_id),
    desk: row.desk,
    title: row.title,
    revision: row.revision,
    // Written by a reporter's app, read by an editor's: checked as it comes in.
    items: z.array(sharedStoryItemSchema).parse(row.items),
    sharedAt: row.shared_at,
    updatedAt: row.updated_at,
  };
}

function commentOf(row: CommentRow): NewsroomStoryComment {
  return {
    id: row.id,
    storyKey: sharedStoryKey(row.reporter, Number(row.story_id)),
    author: row.author,
    anchor: commentAnchorSchema.parse(row.anchor),
    kind: storyCommentKindSchema.parse(row.kind),
    body: row.body,
    replyTo: row.reply_to,
    createdAt: row.created_at,
    resolvedBy: row.resolved_by,
    resolvedAt: row.resolved_at,
  };
}

function approvalOf(row: ApprovalRow): NewsroomQuoteApproval {
  return {
    storyKey: sharedStoryKey(row.reporter, Number(row.story_id)),
    quoteKey: row.quote_key,
    by: row.approved_by,
    at: row.approved_at,
    withdrawn: row.withdrawn,
  };
}

/**
 * Shares the story (or its newer revision) with the editors of its desk, as the user. A revision
 * the newsroom has already (or a newer one) changes nothing. A desk the user is not on is refused
 * in words; row-level security would refuse it too, without them.
 */
export async function shareStory(newsroom: NewsroomConnection, story: StoryToShare): Promise<void> {
  await newsroom.withClient(async (client) => {
    // The desk must exist and have the reporter on it; row-level security refuses it too, without the words.
    await requireOwnDesk(client, story.desk, {
      missing: 'share the story with one of your desks.',
      notMember: 'so you cannot share a story with its editor: share it with one of your desks.',
    });
    await client.query(
      `INSERT INTO verbatim.shared_stories (story_id, desk, title, revision, items)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (reporter, story_id) DO UPDATE
         SET desk = EXCLUDED.desk, title = EXCLUDED.title, revision = EXCLUDED.revision,
             items = EXCLUDED.items, updated_at = now()
         WHERE shared_stories.revision < EXCLUDED.revision`,
      [String(story.storyId), story.desk, story.title, story.revision, JSON.stringify(story.items)],
    );
  });
}

/** The clips the newsroom holds of one of the user's shared stories: quote key → span. */
export async function sharedClipSpans(
  newsroom: NewsroomConnection,
  storyId: number,
): Promise<Map<string, string>> {
  const rows = await newsroom.query<{ quote_key: string; span: string }>(
    `SELECT quote_key, span FROM verbatim.shared_story_clips WHERE reporter = current_user AND story_id = $1`,
    [String(storyId)],
  );
  return new Map(rows.map((row) => [row.quote_key, row.span]));
}

/** Stores (or replaces) the sound of one quote of the user's shared story. */
export async function putSharedClip(
  newsroom: NewsroomConnection,
  clip: { storyId: number; quoteKey: string; span: string; mimeType: string; bytes: Uint8Array },
): Promise<void> {
  await newsroom.query(
    `INSERT INTO verbatim.shared_story_clips (story_id, quote_key, span, mime_type, bytes)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (reporter, story_id, quote_key) DO UPDATE
       SET span = EXCLUDED.span, mime_type = EXCLUDED.mime_type, bytes = EXCLUDED.bytes`,
    [String(clip.storyId), clip.quoteKey, clip.span, clip.mimeType, Buffer.from(clip.bytes)],
  );
}

/** Removes the clips of quotes the story no longer has (or whose sound could not be cut again). */
export async function removeSharedClips(
  newsroom: NewsroomConnection,
  storyId: number,
  quoteKeys: readonly string[],
): Promise<void> {
  if (quoteKeys.length === 0) return;
  await newsroom.query(
    `DELETE FROM verbatim.shared_story_clips
     WHERE reporter = current_user AND story_id = $1 AND quote_key = ANY($2::text[])`,
    [String(storyId), [...quoteKeys]],
  );
}

/** The sound of one quote of a shared story the user can see, or undefined when it has none. */
export async function readSharedClip(
  newsroom: NewsroomConnection,
  ref: { reporter: string; storyId: number; quoteKey: string },
): Promise<{ mimeType: string; bytes: Buffer } | undefined> {
  const rows = await newsroom.query<{ mime_type: string; bytes: Buffer }>(
    `SELECT mime_type, bytes FROM verbatim.shared_story_clips
     WHERE reporter = $1 AND story_id = $2 AND quote_key = $3`,
    [ref.reporter, String(ref.storyId), ref.quoteKey],
  );
  const row = rows[0];
  return row ? { mimeType: row.mime_type, bytes: row.bytes } : undefined;
}

/**
 * Sends a comment (a reply too): stored once however often it is sent (its id is the app's).
 * Answers with the comment as stored, or undefined when the newsroom refused it (a story the
 * user may no longer see).
 */
export async function sendComment(
  newsroom: NewsroomConnection,
  comment: CommentToSend,
): Promise<NewsroomStoryComment | undefined> {
  return newsroom.withClient(async (client) => {
    await client.query(
      `INSERT INTO verbatim.story_comments (id, reporter, story_id, anchor, kind, body, reply_to)
       SELECT $1, $2, $3, $4, $5, $6, $7
       WHERE EXISTS (SELECT 1 FROM verbatim.shared_stories WHERE reporter = $2 AND story_id = $3)
       ON CONFLICT (id) DO NOTHING`,
      [
        comment.id,
        comment.reporter,
        String(comment.storyId),
        JSON.stringify(comment.anchor),
        comment.kind,
        comment.body,
        comment.replyTo,
      ],
    );
    return commentById(client, comment.id);
  });
}

/**
 * Resolves a comment as the user, at the time they resolved it; a comment resolved already keeps
 * its first resolve. Answers with the comment as stored, undefined when the user cannot see it.
 */
export async function resolveComment(
  newsroom: NewsroomConnection,
  id: string,
  at: number,
): Promise<NewsroomStoryComment | undefined> {
  return newsroom.withClient(async (client) => {
    await client.query(
      `UPDATE verbatim.story_comments SET resolved_by = current_user, resolved_at = to_timestamp($2 / 1000.0)
       WHERE id = $1 AND resolved_at IS NULL`,
      [id, at],
    );
    return commentById(client, id);
  });
}

async function commentById(client: pg.PoolClient, id: string): Promise<NewsroomStoryComment | undefined> {
  const found = await client.query<CommentRow>(
    `SELECT ${commentColumns} FROM verbatim.story_comments WHERE id = $1`,
    [id],
  );
  const row = found.rows[0];
  return row ? commentOf(row) : undefined;
}

/**
 * Approves a quote (or withdraws the approval) as the user, at the time they did; the newest of
 * the desk's editors' wins, and sending it again changes nothing. Answers with the approval as
 * stored; refused in words when the user is not an editor of the story's desk.
 */
export async function sendApproval(
  newsroom: NewsroomConnection,
  approval: { reporter: string; storyId: number; quoteKey: string; at: number; withdrawn: boolean },
): Promise<NewsroomQuoteApproval> {
  return newsroom.withClient(async (client) => {
    const key = [approval.reporter, String(approval.storyId), approval.quoteKey];
    const editor = await client.query<{ editor: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM verbatim.shared_stories s JOIN verbatim.desk_members m ON m.desk = s.desk
           JOIN verbatim.desks d ON d.name = m.desk
         WHERE s.reporter = $1 AND s.story_id = $2 AND m.member = current_user AND m.role = 'editor'
           AND pg_has_role(current_user, d.role_name, 'MEMBER')) AS editor`,
      key.slice(0, 2),
    );
    if (!editor.rows[0]?.editor)
      throw new VerbatimError(
        'forbidden',
        `Only an editor of the desk ${approval.reporter}/${approval.storyId} was shared with approves its quotes.`,
      );
    await client.query(
      `INSERT INTO verbatim.story_approvals (reporter, story_id, quote_key, approved_at, withdrawn)
       VALUES ($1, $2, $3, to_timestamp($4 / 1000.0), $5)
       ON CONFLICT (reporter, story_id, quote_key) DO UPDATE
         SET approved_by = current_user, approved_at = EXCLUDED.approved_at, withdrawn = EXCLUDED.withdrawn
         WHERE story_approvals.approved_at < EXCLUDED.approved_at`,
      [...key, approval.at, approval.withdrawn],
    );
    const stored = await client.query<ApprovalRow>(
      `SELECT ${approvalColumns} FROM verbatim.story_approvals
       WHERE reporter = $1 AND story_id = $2 AND quote_key = $3`,
      key,
    );
    return approvalOf(stored.rows[0]!);
  });
}

/**
 * What changed in the shared stories the user can see since `cursor`, read in one snapshot with
 * the next cursor: the oldest transaction still running then, so a change that commits after
 * this read, though it began before, is read next time (a row read twice is applied again, to
 * the same effect). `whole` names stories to read whole whatever the cursor (ones this library
 * has never seen: a story shared before the user became the desk's editor).
 */
export async function pullStoryReview(
  newsroom: NewsroomConnection,
  cursor: string,
  known: ReadonlySet<string>,
): Promise<StoryReviewChanges> {
  return newsroom.withClient(async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const next = await client.query<{ cursor: string }>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS cursor',
      );
      const visible = await client.query<{ reporter: string; story_id: string }>(
        'SELECT reporter, story_id FROM verbatim.shared_stories',
      );
      const visibleKeys = visible.rows.map((row) => sharedStoryKey(row.reporter, Number(row.story_id)));
      const whole = visibleKeys.filter((key) => !known.has(key));
      const changed = `(change_xid >= $1::xid8 OR (reporter || '/' || story_id) = ANY($2::text[]))`;
      const values = [cursor, whole];
      const stories = await client.query<StoryRow>(
        `SELECT ${storyColumns} FROM verbatim.shared_stories WHERE ${changed}`,
        values,
      );
      const comments = await client.query<CommentRow>(
        `SELECT ${commentColumns} FROM verbatim.story_comments WHERE ${changed} ORDER BY created_at, id`,
        values,
      );
      const approvals = await client.query<ApprovalRow>(
        `SELECT ${approvalColumns} FROM verbatim.story_approvals WHERE ${changed}`,
        values,
      );
      await client.query('COMMIT');
      return {
        cursor: next.rows[0]!.cursor,
        stories: stories.rows.map(storyOf),
        comments: comments.rows.map(commentOf),
        approvals: approvals.rows.map(approvalOf),
        visible: visibleKeys,
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}
