import type { KeptNewsroomCopy } from '../../../shared/ipc/newsroom-contract';
import type { NewsroomTranscript } from '../../../shared/newsroom-search';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/** A colleague's published transcript, opened read only from a newsroom hit (issue #35). */
export class NewsroomTranscriptStore {
  transcript = $state<NewsroomTranscript | undefined>(undefined);
  error = $state<Problem | undefined>(undefined);
  loading = $state(true);
  /** "Keep in my library" is under way; `download` follows its recording, when it has one. */
  keeping = $state(false);
  download = $state<{ bytes: number; totalBytes: number } | undefined>(undefined);

  async load(reporter: string, transcriptId: string): Promise<void> {
    this.loading = true;
    try {
      this.transcript = await api.newsroom.open({ reporter, transcriptId });
      this.error = undefined;
    } catch (error) {
      this.error = caught(error, 'newsroom.open');
    }
    this.loading = false;
  }

  /** Saves the transcript as a read-only copy in the reporter's library; undefined when it failed. */
  async keep(): Promise<KeptNewsroomCopy | undefined> {
    const transcript = this.transcript;
    if (!transcript || this.keeping) return undefined;
    const { reporter, transcriptId } = transcript;
    this.keeping = true;
    this.download = undefined;
    const stop = api.on('newsroom.keepProgress', (progress) => {
      if (progress.reporter === reporter && progress.transcriptId === transcriptId)
        this.download = { bytes: progress.bytes, totalBytes: progress.totalBytes };
    });
    try {
      const kept = await api.newsroom.keep({ reporter, transcriptId });
      this.error = undefined;
      return kept;
    } catch (error) {
      this.error = caught(error, 'newsroom.keep');
      return undefined;
    } finally {
      stop();
      this.keeping = false;
      this.download = undefined;
    }
  }
}
