import type { StoredNotice } from '../../../shared/collaboration-notice';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import { glossaries } from './glossaries.svelte';
import { navigation } from './navigation.svelte';

/**
 * The notices of working together (issue #36, point 4): what colleagues did that concerns the
 * reporter, newest first, with the unread count the sidebar's badge shows. Kept live by
 * `notices.changed`; a click on a notice's system notification (`notices.open`) opens it here.
 */
class NoticesStore {
  list = $state<StoredNotice[]>([]);
  unread = $state(0);
  /** The list is shown (its dialog open). */
  showing = $state(false);
  problem = $state<Problem | undefined>(undefined);

  /** Follows main's notices; returns the unsubscribe. */
  listen(): () => void {
    const stops = [
      api.on('notices.changed', ({ unread, added }) => {
        this.unread = unread;
        if (added && !this.list.some((notice) => notice.id === added.id)) this.list = [added, ...this.list];
      }),
      api.on('notices.open', (notice) => void this.open(notice)),
    ];
    void this.load();
    return () => stops.forEach((stop) => stop());
  }

  async load(): Promise<void> {
    try {
      const answer = await api.notices.list({ limit: 100 });
      this.list = answer.notices;
      this.unread = answer.unread;
      this.problem = undefined;
    } catch (error) {
      this.problem = caught(error, 'notices.list');
    }
  }

  /** Opens what the notice is about, and counts it read. */
  async open(notice: StoredNotice): Promise<void> {
    this.showing = false;
    if (notice.target.kind === 'glossary') {
      // The glossary it is about opens, with its proposals or the entry that changed.
      void glossaries.select(notice.target.glossaryId);
      navigation.go('glossary');
    }
    // A story's notice opens its review, at the quote it is about.
    else navigation.openReview(notice.target.storyKey, notice.target.quote);
    if (notice.readAt === null) await this.markRead([notice.id]);
  }

  async markRead(ids?: number[]): Promise<void> {
    try {
      const { unread } = await api.notices.markRead(ids ? { ids } : {});
      const now = Date.now();
      this.list = this.list.map((notice) =>
        notice.readAt === null && (ids === undefined || ids.includes(notice.id))
          ? { ...notice, readAt: now }
          : notice,
      );
      this.unread = unread;
    } catch (error) {
      this.problem = caught(error, 'notices.markRead');
    }
  }
}

export const notices = new NoticesStore();
