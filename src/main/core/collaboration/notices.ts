import { Signal } from '../../base/signal';
import { settle } from '../../base/settle';
import { VerbatimError } from '../../../shared/errors';
import {
  collaborationNoticeSchema,
  type CollaborationNotice,
  type StoredNotice,
} from '../../../shared/collaboration-notice';
import type { NoticeStore } from '../library/notice-store';
import type { CollaborationNoticeSink } from './collaboration-notice';

/** What changed in the notices: how many are unread now, and the notice that just arrived, if one did. */
export interface NoticesChange {
  unread: number;
  added?: StoredNotice;
}

/**
 * The notices of working together (issue #36, point 4) as the app, the web host and the CLI use
 * them: the store made async, and `changed` after every change, so every window's badge and list
 * follow, and the desktop can show a notice that arrives while the window is elsewhere.
 */
export class Notices {
  readonly changed = new Signal<NoticesChange>();
  /** The system's notification of a notice was clicked: the window opens what it is about. */
  readonly openRequested = new Signal<StoredNotice>();

  constructor(private readonly store: NoticeStore) {}

  /** Where the kinds of shared work hand what they read; a notice already kept is not raised again. */
  readonly sink: CollaborationNoticeSink = (notice) => this.add(notice).then(() => undefined);

  async add(notice: CollaborationNotice): Promise<StoredNotice | undefined> {
    const parsed = collaborationNoticeSchema.safeParse(notice);
    // A notice is made by our own code: a malformed one is a fault of ours, said plainly.
    if (!parsed.success)
      throw new VerbatimError('internal', `A notice could not be kept: ${parsed.error.issues[0]?.message}`);
    const added = await settle(() => this.store.add(parsed.data));
    if (added) this.changed.emit({ unread: this.store.unreadCount(), added });
    return added;
  }

  list(limit?: number): Promise<StoredNotice[]> {
    return settle(() => this.store.list(limit));
  }

  unreadCount(): Promise<number> {
    return settle(() => this.store.unreadCount());
  }

  /** Marks these read (every unread one when `ids` is absent). */
  async markRead(ids?: readonly number[]): Promise<number> {
    const changed = await settle(() => this.store.markRead(ids));
    if (changed > 0) this.changed.emit({ unread: this.store.unreadCount() });
    return changed;
  }
}
