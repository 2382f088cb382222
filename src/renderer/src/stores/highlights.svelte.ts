import type { Highlight, HighlightColor, HighlightLabel } from '../../../shared/highlights';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { inSpokenOrder } from '../lib/highlight-logic';
import { caught } from '../lib/report-problem';

/**
 * The highlights of the open transcript (issue #20): the labels to choose from, the highlights
 * in the order they are spoken, and making, editing and deleting them. Main announces every
 * change, a correction's included (the words follow it), as `highlights.changed`; the list is
 * read again then, so the panel always shows the words as corrected now.
 */
export class ReaderHighlights {
  labels = $state.raw<HighlightLabel[]>([]);
  items = $state.raw<Highlight[]>([]);
  error = $state<Problem | undefined>(undefined);
  /** A sentence for the polite live region after an action. */
  notice = $state('');

  /** Only the newest listing is kept: a slower, older answer is dropped. */
  private seq = 0;

  constructor(readonly transcriptId: string) {}

  /** Loads labels and highlights and follows main's changes; the returned function stops following. */
  start(): () => void {
    const stop = api.on('highlights.changed', ({ transcriptIds }) => {
      if (transcriptIds.includes(this.transcriptId)) void this.reload();
    });
    void this.loadLabels();
    void this.reload();
    return stop;
  }

  colorOf = (labelId: number): HighlightColor =>
    this.labels.find((label) => label.id === labelId)?.color ?? 'yellow';

  labelName(labelId: number): string {
    return this.labels.find((label) => label.id === labelId)?.name ?? 'Highlight';
  }

  async loadLabels(): Promise<void> {
    try {
      this.labels = await api.highlights.labels();
    } catch (error) {
      this.error = caught(error, 'highlights.labels');
    }
  }

  async reload(): Promise<void> {
    const seq = ++this.seq;
    try {
      const items = await api.highlights.list({ transcriptId: this.transcriptId });
      if (seq === this.seq) this.items = inSpokenOrder(items);
    } catch (error) {
      if (seq === this.seq) this.error = caught(error, 'highlights.list');
    }
  }

  /** Highlights the span; answers the new highlight, or undefined (with the error shown). */
  async create(span: { startMs: number; endMs: number }, labelId: number | undefined, note: string) {
    return this.act('highlights.create', async () => {
      const made = await api.highlights.create({
        transcriptId: this.transcriptId,
        startMs: span.startMs,
        endMs: span.endMs,
        ...(labelId !== undefined ? { labelId } : {}),
        note,
      });
      this.items = inSpokenOrder([...this.items.filter((item) => item.id !== made.id), made]);
      this.notice = `Highlighted: “${made.text}”.`;
      return made;
    });
  }

  async update(id: number, change: { labelId?: number; note?: string }): Promise<void> {
    await this.act('highlights.update', async () => {
      const updated = await api.highlights.update({ id, ...change });
      this.items = this.items.map((item) => (item.id === id ? updated : item));
      this.notice = 'Highlight saved.';
    });
  }

  async remove(id: number): Promise<void> {
    await this.act('highlights.delete', async () => {
      await api.highlights.delete({ id });
      this.items = this.items.filter((item) => item.id !== id);
      this.notice = 'Highlight deleted.';
    });
  }

  private async act<T>(context: string, action: () => Promise<T>): Promise<T | undefined> {
    this.error = undefined;
    try {
      return await action();
    } catch (error) {
      this.error = caught(error, context);
      return undefined;
    }
  }
}
