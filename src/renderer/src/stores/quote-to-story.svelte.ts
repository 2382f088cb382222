import type { Span } from '../lib/quote-span';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/**
 * "Add to story…" from outside the reader (issue #20: a library search hit, Ask's key quotes and
 * claims): the span becomes a highlight (the one already there when the span is highlighted
 * already), then the Add to story dialog opens with it. Each place that offers it owns one.
 */
export class QuoteToStory {
  /** The highlight the dialog adds, while it is open. */
  pending = $state<{ highlightId: number; words: string } | undefined>(undefined);
  error = $state<Problem | undefined>(undefined);

  async open(transcriptId: string, span: Span): Promise<void> {
    try {
      const existing = (await api.highlights.list({ transcriptId })).find(
        (highlight) => highlight.startMs === span.startMs && highlight.endMs === span.endMs,
      );
      const highlight = existing ?? (await api.highlights.create({ transcriptId, ...span }));
      this.pending = { highlightId: highlight.id, words: highlight.text };
      this.error = undefined;
    } catch (error) {
      this.error = caught(error, 'highlights.create');
    }
  }

  close(): void {
    this.pending = undefined;
  }
}
