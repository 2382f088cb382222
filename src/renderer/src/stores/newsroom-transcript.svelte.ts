import type { NewsroomTranscript } from '../../../shared/newsroom-search';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/** A colleague's published transcript, opened read only from a newsroom hit (issue #35). */
export class NewsroomTranscriptStore {
  transcript = $state<NewsroomTranscript | undefined>(undefined);
  error = $state<Problem | undefined>(undefined);
  loading = $state(true);

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
}
