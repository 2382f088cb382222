import { inWriteTransaction, type Db } from './database';
import {
  collaborationNoticeTargetSchema,
  type CollaborationNotice,
  type CollaborationNoticeKind,
  type StoredNotice,
} from '../../../shared/collaboration-notice';
import { json, rowMapping, value } from './row-mapping';
import { statement } from './statement-cache';

const noticeRow = rowMapping({
  id: value<number>('id'),
  key: value<string>('key'),
  kind: value<CollaborationNoticeKind>('kind'),
  by: value<string>('by_user'),
  text: value<string>('text'),
  target: json('target_json', collaborationNoticeTargetSchema),
  at: value<number>('at'),
  receivedAt: value<number>('received_at'),
  readAt: value<number | null>('read_at'),
});

/** How many read notices are kept: the unread always are. */
export const readNoticesKept = 500;

/**
 * The notices of working together (issue #36, point 4; library migration 021). Synchronous; the
 * Notices service makes it async and announces changes.
 */
export class NoticeStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps a notice unless one with its key is kept already; the stored one when it is new. */
  add(notice: CollaborationNotice): StoredNotice | undefined {
    return inWriteTransaction(this.db, () => {
      const added = statement(
        this.db,
        `INSERT OR IGNORE INTO collaboration_notices (key, kind, by_user, text, target_json, at, received_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        notice.key,
        notice.kind,
        notice.by,
        notice.text,
        JSON.stringify(notice.target),
        notice.at,
        this.now(),
      );
      if (added.changes === 0) return undefined;
      return noticeRow.fromRow(
        statement(this.db, 'SELECT * FROM collaboration_notices WHERE id = ?').get(added.lastInsertRowid),
      );
    });
  }

  /** The newest first, `limit` of them. */
  list(limit = 100): StoredNotice[] {
    return statement(this.db, 'SELECT * FROM collaboration_notices ORDER BY at DESC, id DESC LIMIT ?')
      .all(limit)
      .map(noticeRow.fromRow);
  }

  unreadCount(): number {
    return (
      statement(this.db, 'SELECT count(*) AS n FROM collaboration_notices WHERE read_at IS NULL').get() as {
        n: number;
      }
    ).n;
  }

  /** Marks these notices read (every unread one when `ids` is absent); how many changed. */
  markRead(ids?: readonly number[]): number {
    return inWriteTransaction(this.db, () => {
      const now = this.now();
      let changed = 0;
      if (ids === undefined)
        changed = statement(
          this.db,
          'UPDATE collaboration_notices SET read_at = ? WHERE read_at IS NULL',
        ).run(now).changes;
      else
        for (const id of ids)
          changed += statement(
            this.db,
            'UPDATE collaboration_notices SET read_at = ? WHERE id = ? AND read_at IS NULL',
          ).run(now, id).changes;
      // The oldest read ones go once there are more than enough of them to look back on.
      statement(
        this.db,
        `DELETE FROM collaboration_notices WHERE read_at IS NOT NULL AND id NOT IN (
           SELECT id FROM collaboration_notices WHERE read_at IS NOT NULL ORDER BY at DESC, id DESC LIMIT ?)`,
      ).run(readNoticesKept);
      return changed;
    });
  }
}
