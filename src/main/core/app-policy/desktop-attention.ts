import { finishedStatuses, type JobStatus, type TranscriptSummary } from '../../../shared/library';

/**
 * What the operating system shows of Verbatim's work while the journalist is elsewhere: a
 * notification when a transcription finishes or fails and the window is not in front (a click
 * opens the transcript), the upload's progress on the dock or taskbar icon, and the number of
 * jobs still running as the icon's badge. Pure: the OS side is the port.
 */
export interface AttentionPort {
  notify(note: { title: string; body: string; transcriptId: string }): void;
  /** 0 to 1 while uploads run; null removes the bar. */
  setProgress(fraction: number | null): void;
  /** Jobs still running; 0 removes the badge. */
  setBadge(count: number): void;
}

type JobState = Pick<TranscriptSummary, 'id' | 'title' | 'status' | 'error'>;

export class DesktopAttention {
  private readonly statuses = new Map<string, JobStatus>();
  private readonly uploads = new Map<string, { sent: number; total: number }>();
  private shownBadge = -1;
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

  uploadProgress(id: string, sent: number, total: number): void {
    if (total > 0) this.uploads.set(id, { sent: Math.min(sent, total), total });
    this.refresh();
  }

  private refresh(): void {
    const running = [...this.statuses.values()].filter((status) => !finishedStatuses.includes(status)).length;
    if (running !== this.shownBadge) {
      this.shownBadge = running;
      this.port.setBadge(running);
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
