import { z } from 'zod';
import { inReadTransaction, inWriteTransaction, type Db } from './database';
import { VerbatimError } from '../../../shared/errors';
import {
  commentAnchorSchema,
  sharedStoryItemSchema,
  sharedStoryKey,
  type CommentAnchor,
  type QuoteApproval,
  type SharedStory,
  type SharedStoryItem,
  type SharedStorySummary,
  type StoryComment,
  type StoryCommentKind,
  type StoryShare,
} from '../../../shared/story-review';
import { flag, json, nullable, rowMapping, value } from './row-mapping';
import { statement } from './statement-cache';

/**
 * The library's side of stories an editor reviews (issue #36, point 2; migration 23): what the
 * user shared, the shared stories they can see as last read, comments and approvals with what
 * still waits to be sent, and where the next pull starts. Every method takes the newsroom (its
 * address with the user's login), so each newsroom's review is kept apart. Synchronous; the
 * Library runs it through `reviews`.
 */

const shareRow = rowMapping({
  storyId: value<number>('story_id'),
  desk: value<string>('desk'),
  revisionAsked: value<number>('revision_asked'),
  revisionSent: value<number>('revision_sent'),
  sentDigest: value<string | null>('sent_digest'),
  error: value<string | null>('error'),
});
export type StoredShare = ReturnType<typeof shareRow.fromRow>;

const reviewRow = rowMapping({
  key: value<string>('story_key'),
  reporter: value<string>('reporter'),
  storyId: value<number>('story_id'),
  desk: value<string>('desk'),
  title: value<string>('title'),
  revision: value<number>('revision'),
  items: json('items_json', z.array(sharedStoryItemSchema)),
  sharedAt: value<number>('shared_at'),
  updatedAt: value<number>('updated_at'),
});

const commentRow = rowMapping({
  id: value<string>('id'),
  storyKey: value<string>('story_key'),
  author: value<string>('author'),
  anchor: json('anchor_json', commentAnchorSchema),
  kind: value<StoryCommentKind>('kind'),
  body: value<string>('body'),
  replyTo: value<string | null>('reply_to'),
  createdAt: value<number>('created_at'),
  resolvedBy: value<string | null>('resolved_by'),
  resolvedAt: nullable(value<number>('resolved_at')),
  commentWaiting: flag('comment_waiting'),
  resolveWaiting: flag('resolve_waiting'),
});
type CommentRecord = ReturnType<typeof commentRow.fromRow>;

const approvalRow = rowMapping({
  storyKey: value<string>('story_key'),
  quoteKey: value<string>('quote_key'),
  by: value<string>('approved_by'),
  at: value<number>('approved_at'),
  withdrawn: flag('withdrawn'),
  waiting: flag('waiting'),
});

/** A shared story as the newsroom holds it, to be kept here. */
export interface ReviewedStory {
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

/** A comment as the newsroom holds it. */
export type StoredComment = Omit<StoryComment, 'waiting'>;
/** An approval as the newsroom holds it. */
export type StoredApproval = Omit<QuoteApproval, 'waiting'>;

/** What a pull brought that this library did not have yet: what notices are made of. */
export interface ReviewNews {
  stories: ReviewedStory[];
  comments: StoredComment[];
  resolved: StoredComment[];
  approvals: StoredApproval[];
}

function toComment(record: CommentRecord): StoryComment {
  const { commentWaiting, resolveWaiting, ...comment } = record;
  return { ...comment, waiting: commentWaiting || resolveWaiting };
}

export class StoryReviewStore {
  constructor(private readonly db: Db) {}

  share(newsroom: string, storyId: number): StoredShare | undefined {
    const row = statement(this.db, 'SELECT * FROM story_shares WHERE newsroom = ? AND story_id = ?').get(
      newsroom,
      storyId,
    );
    return row ? shareRow.fromRow(row) : undefined;
  }

  shares(newsroom: string): StoredShare[] {
    return statement(this.db, 'SELECT * FROM story_shares WHERE newsroom = ? ORDER BY story_id')
      .all(newsroom)
      .map(shareRow.fromRow);
  }

  /**
   * Asks for the story to be shared with `desk`'s editor: the next revision, unless one is asked
   * and not sent yet (it then goes to this desk). A refusal before is forgotten: it is tried again.
   */
  askShare(newsroom: string, storyId: number, desk: string): StoredShare {
    return inWriteTransaction(this.db, () => {
      statement(
        this.db,
        `INSERT INTO story_shares (newsroom, story_id, desk, revision_asked) VALUES (?, ?, ?, 1)
         ON CONFLICT (newsroom, story_id) DO UPDATE SET desk = excluded.desk, error = NULL,
           revision_asked = CASE WHEN revision_asked > revision_sent THEN revision_asked ELSE revision_sent + 1 END,
           sent_digest = NULL`,
      ).run(newsroom, storyId, desk);
      return this.share(newsroom, storyId)!;
    });
  }

  /** The story changed since it was sent: its next revision is asked for. */
  askNextRevision(newsroom: string, storyId: number): StoredShare {
    return inWriteTransaction(this.db, () => {
      statement(
        this.db,
        `UPDATE story_shares SET revision_asked = revision_sent + 1
         WHERE newsroom = ? AND story_id = ? AND revision_asked <= revision_sent`,
      ).run(newsroom, storyId);
      return this.share(newsroom, storyId)!;
    });
  }

  shareSent(newsroom: string, storyId: number, revision: number, digest: string): void {
    statement(
      this.db,
      `UPDATE story_shares SET revision_sent = max(revision_sent, ?), sent_digest = ?, error = NULL
       WHERE newsroom = ? AND story_id = ?`,
    ).run(revision, digest, newsroom, storyId);
  }

  shareRefused(newsroom: string, storyId: number, error: string): void {
    statement(this.db, 'UPDATE story_shares SET error = ? WHERE newsroom = ? AND story_id = ?').run(
      error,
      newsroom,
      storyId,
    );
  }

  shareState(newsroom: string, reporter: string, storyId: number): StoryShare | undefined {
    const share = this.share(newsroom, storyId);
    if (!share) return undefined;
    const { sentDigest: _sent, ...rest } = share;
    return { ...rest, key: sharedStoryKey(reporter, storyId) };
  }

  /** The shared stories this user can see, newest change first. */
  list(newsroom: string, me: string): SharedStorySummary[] {
    return inReadTransaction(this.db, () =>
      statement(this.db, 'SELECT * FROM story_reviews WHERE newsroom = ? ORDER BY updated_at DESC, story_key')
        .all(newsroom)
        .map((row) => this.summaryOf(newsroom, me, reviewRow.fromRow(row))),
    );
  }

  /** One shared story with its comments (oldest first, waiting ones last) and approvals. */
  get(newsroom: string, me: string, key: string): SharedStory | undefined {
    return inReadTransaction(this.db, () => {
      const row = statement(this.db, 'SELECT * FROM story_reviews WHERE newsroom = ? AND story_key = ?').get(
        newsroom,
        key,
      );
      if (!row) return undefined;
      const story = reviewRow.fromRow(row);
      return {
        ...this.summaryOf(newsroom, me, story),
        items: story.items,
        comments: this.comments(newsroom, key),
        approvals: statement(
          this.db,
          'SELECT * FROM story_review_approvals WHERE newsroom = ? AND story_key = ? ORDER BY quote_key',
        )
          .all(newsroom, key)
          .map((approval) => approvalRow.fromRow(approval)),
      };
    });
  }

  /** The keys of the shared stories this library has read. */
  knownKeys(newsroom: string): Set<string> {
    return new Set(
      (
        statement(this.db, 'SELECT story_key FROM story_reviews WHERE newsroom = ?').all(newsroom) as {
          story_key: string;
        }[]
      ).map((row) => row.story_key),
    );
  }

  comments(newsroom: string, key: string): StoryComment[] {
    return statement(
      this.db,
      `SELECT * FROM story_review_comments WHERE newsroom = ? AND story_key = ?
       ORDER BY comment_waiting, created_at, id`,
    )
      .all(newsroom, key)
      .map((row) => toComment(commentRow.fromRow(row)));
  }

  comment(id: string): StoryComment | undefined {
    const row = statement(this.db, 'SELECT * FROM story_review_comments WHERE id = ?').get(id);
    return row ? toComment(commentRow.fromRow(row)) : undefined;
  }

  addComment(
    newsroom: string,
    comment: {
      id: string;
      storyKey: string;
      author: string;
      anchor: CommentAnchor;
      kind: StoryCommentKind;
      body: string;
      replyTo: string | null;
      createdAt: number;
    },
  ): StoryComment {
    return inWriteTransaction(this.db, () => {
      statement(
        this.db,
        `INSERT INTO story_review_comments (id, newsroom, story_key, author, anchor_json, kind, body, reply_to,
           created_at, comment_waiting) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
      ).run(
        comment.id,
        newsroom,
        comment.storyKey,
        comment.author,
        JSON.stringify(comment.anchor),
        comment.kind,
        comment.body,
        comment.replyTo,
        comment.createdAt,
      );
      return this.comment(comment.id)!;
    });
  }

  /** Resolves a comment here, to be sent; one resolved already is left as it is. */
  resolve(id: string, by: string, at: number): StoryComment {
    return inWriteTransaction(this.db, () => {
      statement(
        this.db,
        `UPDATE story_review_comments SET resolved_by = ?, resolved_at = ?, resolve_waiting = 1
         WHERE id = ? AND resolved_at IS NULL`,
      ).run(by, at, id);
      const comment = this.comment(id);
      if (!comment) throw new VerbatimError('not_found', 'This comment is no longer there.');
      return comment;
    });
  }

  approve(
    newsroom: string,
    approval: { storyKey: string; quoteKey: string; by: string; at: number; withdrawn: boolean },
  ): QuoteApproval {
    return inWriteTransaction(this.db, () => {
      statement(
        this.db,
        `INSERT INTO story_review_approvals (newsroom, story_key, quote_key, approved_by, approved_at, withdrawn, waiting)
         VALUES (?, ?, ?, ?, ?, ?, 1)
         ON CONFLICT (newsroom, story_key, quote_key) DO UPDATE SET approved_by = excluded.approved_by,
           approved_at = excluded.approved_at, withdrawn = excluded.withdrawn, waiting = 1`,
      ).run(
        newsroom,
        approval.storyKey,
        approval.quoteKey,
        approval.by,
        approval.at,
        approval.withdrawn ? 1 : 0,
      );
      return { ...approval, waiting: true };
    });
  }

  /** Comments written here and not sent yet, oldest first (a reply after what it answers). */
  waitingComments(newsroom: string): StoryComment[] {
    return statement(
      this.db,
      `SELECT * FROM story_review_comments WHERE newsroom = ? AND comment_waiting = 1 ORDER BY created_at, id`,
    )
      .all(newsroom)
      .map((row) => toComment(commentRow.fromRow(row)));
  }

  waitingResolves(newsroom: string): StoryComment[] {
    return statement(
      this.db,
      `SELECT * FROM story_review_comments WHERE newsroom = ? AND resolve_waiting = 1 AND comment_waiting = 0
       ORDER BY resolved_at, id`,
    )
      .all(newsroom)
      .map((row) => toComment(commentRow.fromRow(row)));
  }

  waitingApprovals(newsroom: string): QuoteApproval[] {
    return statement(
      this.db,
      'SELECT * FROM story_review_approvals WHERE newsroom = ? AND waiting = 1 ORDER BY approved_at',
    )
      .all(newsroom)
      .map((row) => approvalRow.fromRow(row));
  }

  /** How many comments, resolves and approvals wait to be sent. */
  waitingCount(newsroom: string): number {
    const row = statement(
      this.db,
      `SELECT (SELECT count(*) FROM story_review_comments WHERE newsroom = ? AND (comment_waiting = 1 OR resolve_waiting = 1))
            + (SELECT count(*) FROM story_review_approvals WHERE newsroom = ? AND waiting = 1)
            + (SELECT count(*) FROM story_shares WHERE newsroom = ? AND revision_asked > revision_sent AND error IS NULL) AS n`,
    ).get(newsroom, newsroom, newsroom) as { n: number };
    return row.n;
  }

  /** A waiting comment the newsroom refused (its story is no longer the user's to see): dropped, with why. */
  dropComment(id: string): void {
    statement(this.db, 'DELETE FROM story_review_comments WHERE id = ?').run(id);
  }

  /** A waiting approval the newsroom refused (the user is not an editor of the story's desk). */
  dropApproval(newsroom: string, storyKey: string, quoteKey: string): void {
    statement(
      this.db,
      'DELETE FROM story_review_approvals WHERE newsroom = ? AND story_key = ? AND quote_key = ? AND waiting = 1',
    ).run(newsroom, storyKey, quoteKey);
  }

  /**
   * Keeps what the newsroom holds (what a send answered, or a pull read) and says what is new
   * here. A resolve still waiting to be sent keeps its local state until the newsroom has one.
   */
  store(
    newsroom: string,
    changes: {
      stories?: readonly ReviewedStory[];
      comments?: readonly StoredComment[];
      approvals?: readonly StoredApproval[];
      visible?: readonly string[];
      cursor?: string;
    },
  ): ReviewNews {
    return inWriteTransaction(this.db, () => {
      const news: ReviewNews = { stories: [], comments: [], resolved: [], approvals: [] };
      for (const story of changes.stories ?? []) {
        const before = statement(
          this.db,
          'SELECT revision FROM story_reviews WHERE newsroom = ? AND story_key = ?',
        ).get(newsroom, story.key) as { revision: number } | undefined;
        if (!before) news.stories.push(story);
        if (before && before.revision > story.revision) continue;
        statement(
          this.db,
          `INSERT OR REPLACE INTO story_reviews (newsroom, story_key, reporter, story_id, desk, title, revision,
             items_json, shared_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          newsroom,
          story.key,
          story.reporter,
          story.storyId,
          story.desk,
          story.title,
          story.revision,
          JSON.stringify(story.items),
          story.sharedAt,
          story.updatedAt,
        );
      }
      for (const comment of changes.comments ?? []) {
        const found = statement(this.db, 'SELECT * FROM story_review_comments WHERE id = ?').get(comment.id);
        const row = found ? commentRow.fromRow(found) : undefined;
        // Our own comment coming back, or one read before, is not news.
        if (!row) news.comments.push(comment);
        if (comment.resolvedAt !== null && (!row || row.resolvedAt === null)) news.resolved.push(comment);
        // Resolved here and not sent yet: kept until the newsroom has a resolve.
        const keepLocalResolve = row?.resolveWaiting === true && comment.resolvedAt === null;
        statement(
          this.db,
          `INSERT OR REPLACE INTO story_review_comments (id, newsroom, story_key, author, anchor_json, kind, body,
             reply_to, created_at, resolved_by, resolved_at, comment_waiting, resolve_waiting)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
        ).run(
          comment.id,
          newsroom,
          comment.storyKey,
          comment.author,
          JSON.stringify(comment.anchor),
          comment.kind,
          comment.body,
          comment.replyTo,
          comment.createdAt,
          keepLocalResolve && row ? row.resolvedBy : comment.resolvedBy,
          keepLocalResolve && row ? row.resolvedAt : comment.resolvedAt,
          keepLocalResolve ? 1 : 0,
        );
      }
      for (const approval of changes.approvals ?? []) {
        const before = statement(
          this.db,
          'SELECT * FROM story_review_approvals WHERE newsroom = ? AND story_key = ? AND quote_key = ?',
        ).get(newsroom, approval.storyKey, approval.quoteKey);
        const local = before ? approvalRow.fromRow(before) : undefined;
        // A newer approval made here and not sent yet wins over what was read; it is sent next.
        if (local?.waiting && local.at > approval.at) continue;
        if (
          !local ||
          local.at !== approval.at ||
          local.by !== approval.by ||
          local.withdrawn !== approval.withdrawn
        )
          news.approvals.push(approval);
        statement(
          this.db,
          `INSERT OR REPLACE INTO story_review_approvals (newsroom, story_key, quote_key, approved_by, approved_at,
             withdrawn, waiting) VALUES (?, ?, ?, ?, ?, ?, 0)`,
        ).run(
          newsroom,
          approval.storyKey,
          approval.quoteKey,
          approval.by,
          approval.at,
          approval.withdrawn ? 1 : 0,
        );
      }
      if (changes.visible) {
        // A story taken from this user (no longer shared with their desk, or they left it).
        const visible = new Set(changes.visible);
        for (const key of this.knownKeys(newsroom))
          if (!visible.has(key)) {
            statement(this.db, 'DELETE FROM story_reviews WHERE newsroom = ? AND story_key = ?').run(
              newsroom,
              key,
            );
            statement(
              this.db,
              'DELETE FROM story_review_comments WHERE newsroom = ? AND story_key = ? AND comment_waiting = 0',
            ).run(newsroom, key);
            statement(
              this.db,
              'DELETE FROM story_review_approvals WHERE newsroom = ? AND story_key = ? AND waiting = 0',
            ).run(newsroom, key);
          }
      }
      if (changes.cursor !== undefined)
        statement(
          this.db,
          'INSERT OR REPLACE INTO story_review_cursors (newsroom, cursor) VALUES (?, ?)',
        ).run(newsroom, changes.cursor);
      return news;
    });
  }

  cursor(newsroom: string): string | undefined {
    const row = statement(this.db, 'SELECT cursor FROM story_review_cursors WHERE newsroom = ?').get(
      newsroom,
    ) as { cursor: string } | undefined;
    return row?.cursor;
  }

  private summaryOf(
    newsroom: string,
    me: string,
    story: ReturnType<typeof reviewRow.fromRow>,
  ): SharedStorySummary {
    // A reply belongs to its comment's thread: resolving the comment closes the conversation.
    const open = statement(
      this.db,
      'SELECT count(*) AS n FROM story_review_comments WHERE newsroom = ? AND story_key = ? AND resolved_at IS NULL AND reply_to IS NULL',
    ).get(newsroom, story.key) as { n: number };
    const { items, ...summary } = story;
    return {
      ...summary,
      mine: story.reporter === me,
      quotes: items.filter((item) => item.kind === 'quote').length,
      openComments: open.n,
    };
  }
}
