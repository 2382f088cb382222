import { finishedStatuses, type JobStatus, type TranscriptSummary } from '../../../shared/library';
import { noticeTitle, type StoredNotice } from '../../../shared/collaboration-notice';

/**
 * What the operating system shows of Verbatim's work while the journalist is elsewhere: a
 * notification when a transcription finishes or fails and the window is not in front (a click
 * opens the transcript), the upload's progress on the dock or taskbar icon, and the number of
 * jobs still running as the icon's badge. Working together (issue #36, point 4) adds its notices:
 * each one that arrives while the window is elsewhere is a notification (a click opens it), and
 * the badge counts the unread ones too. Pure: the OS side is the port.
 */
export interface AttentionPort {
  notify(note: { title: string; body: string; transcriptId: string }): void;
  /** A colleague's comment, approval, request or glossary change; a click opens it in the window. */
  notifyNotice(note: { title: string; body: string; notice: StoredNotice }): void;
  /** 0 to 1 while uploads run; null removes the bar. */
  setProgress(fraction: number | null): void;
  /** What waits for the journalist: jobs still running and notices unread; 0 removes the badge. */
  setBadge(count: number, parts: BadgeParts): void;
}

/** What the badge's number is made of, for a platform that describes it in words. */
export interface BadgeParts {
  running: number;
  unread: number;
}

type JobState = Pick<TranscriptSummary, 'id' | 'title' | 'status' | 'error'>;

export class DesktopAttention {
  private readonly statuses = new Map<string, JobStatus>();
  private readonly uploads = new Map<string, { sent: number; total: number }>();
  private shownBadge = -1;
  private unread = 0;
  private shownProgress: number | null | undefined;

  constructor(
    private readonly port: AttentionPort,
    private readonly windowFocused: () => boolean,
  ) {}

  /** The jobs there are at start: counted, never announced. */
  seed(jobs: readonly JobState[]): void {
    for (const job of jobs) this.statuses.set(job.id, job.status);
    this.refresh();
  }

  jobChanged(job: JobState): void {
    const before = this.statuses.get(job.id);
    this.statuses.set(job.id, job.status);
    if (job.status !== 'uploading') this.uploads.delete(job.id);
    const justEnded = before !== undefined && !finishedStatuses.includes(before) && before !== job.status;
    if (justEnded && !this.windowFocused()) {
      if (job.status === 'completed') {
        this.port.notify({
          title: 'Transcript ready',
          body: `“${job.title}” is ready to read.`,
          transcriptId: job.id,
        });
      } else if (job.status === 'error') {
        this.port.notify({
          title: 'Transcription failed',
          body: `“${job.title}”: ${job.error ?? 'the service gave no reason.'}`,
          transcriptId: job.id,
        });
      }
    }
    this.refresh();
  }

  /** A notice of working together arrived: announced while the window is elsewhere. */
  noticeArrived(notice: StoredNotice): void {
    if (!this.windowFocused())
      this.port.notifyNotice({ title: noticeTitle(notice), body: notice.text, notice });
  }

  /** How many notices are unread now: counted in the badge. */
  unreadNotices(count: number): void {
    this.unread = count;
    this.refresh();
  }

  uploadProgress(id: string, sent: number, total: number): void {
    if (total > 0) this.uploads.set(id, { sent: Math.min(sent, total), total });
    this.refresh();
  }

  private refresh(): void {
    const running = [...this.statuses.values()].filter((status) => !finishedStatuses.includes(status)).length;
    const waiting = running + this.unread;
    if (waiting !== this.shownBadge) {
      this.shownBadge = waiting;
      this.port.setBadge(waiting, { running, unread: this.unread });
    }
    let sent = 0;
    let total = 0;
    for (const upload of this.uploads.values()) {
      sent += upload.sent;
      total += upload.total;
    }
    // Whole percents: the icon cannot show finer, and the OS call is not free.
    const progress = total > 0 ? Math.floor((sent / total) * 100) / 100 : null;
    if (progress !== this.shownProgress) {
      this.shownProgress = progress;
      this.port.setProgress(progress);
    }
  }
}
