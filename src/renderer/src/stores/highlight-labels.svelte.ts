import type { HighlightColor, HighlightLabel } from '../../../shared/highlights';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/**
 * The highlight labels the journalist renames and recolours in Settings (issue #20: "a small set
 * the journalist can rename"). Main refuses an empty or duplicate name; its message is kept per
 * label, next to the field it is about.
 */
class HighlightLabelsStore {
  labels = $state.raw<HighlightLabel[]>([]);
  error = $state<Problem | undefined>(undefined);
  /** A refused change, by label id. */
  problems = $state<Record<number, Problem | undefined>>({});

  /** Loads and follows main's changes; the returned function stops following. */
  start(): () => void {
    const stop = api.on('highlights.changed', () => void this.load());
    void this.load();
    return stop;
  }

  async load(): Promise<void> {
    try {
      this.labels = await api.highlights.labels();
      this.error = undefined;
    } catch (error) {
      this.error = caught(error, 'highlights.labels');
    }
  }

  rename(id: number, name: string): Promise<boolean> {
    return this.change(id, { name });
  }

  recolour(id: number, color: HighlightColor): Promise<boolean> {
    return this.change(id, { color });
  }

  private async change(id: number, change: { name?: string; color?: HighlightColor }): Promise<boolean> {
    try {
      const updated = await api.highlights.updateLabel({ id, ...change });
      this.labels = this.labels.map((label) => (label.id === id ? updated : label));
      this.problems = { ...this.problems, [id]: undefined };
      return true;
    } catch (error) {
      this.problems = { ...this.problems, [id]: caught(error, 'highlights.updateLabel') };
      return false;
    }
  }
}

export const highlightLabels = new HighlightLabelsStore();
