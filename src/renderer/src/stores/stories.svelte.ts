import { VerbatimError } from '../../../shared/errors';
import {
  quoteAlreadyInStorySchema,
  type QuoteAlreadyInStory,
  type Story,
  type StorySummary,
} from '../../../shared/highlights';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { reorder } from '../lib/highlight-logic';
import { caught } from '../lib/report-problem';

/**
 * Stories (issue #20): the list, the story open on the Stories view, and every change to them.
 * Each action answers the story as main stored it, which replaces the one shown; a move is shown
 * at once and put back if main refuses it. `stories.changed` from another window (or a quote
 * whose words were corrected) reloads what it names.
 */
class StoriesStore {
  list = $state.raw<StorySummary[]>([]);
  loaded = $state(false);
  open = $state.raw<Story | undefined>(undefined);
  /**
   * The story the journalist chose last, before main's answer makes it `open`: a refresh or an
   * answer for another (a rename sent just before the click that chose this one) shows nothing.
   */
  private chosen: number | undefined;
  error = $state<Problem | undefined>(undefined);
  /** A sentence for the polite live region after an action. */
  notice = $state('');
  /** The Stories view's search: its text, and the stories it found with where (empty text: the list). */
  query = $state('');
  found = $state.raw<(StorySummary & { match: string })[] | undefined>(undefined);
  private searchSeq = 0;

  private listeners = 0;
  private stop: (() => void) | undefined;

  /** Loads and follows main's changes while a view needs it; the returned function stops. */
  start(): () => void {
    if (this.listeners++ === 0) {
      const stops = [
        api.on('stories.changed', ({ storyIds }) => {
          void this.loadList();
          if (this.chosen !== undefined && storyIds.includes(this.chosen)) void this.select(this.chosen);
        }),
        // A highlight's words or a deleted highlight change the quotes that show it.
        api.on('highlights.changed', () => {
          if (this.chosen !== undefined) void this.select(this.chosen);
        }),
      ];
      this.stop = () => stops.forEach((stop) => stop());
    }
    void this.loadList();
    return () => {
      if (--this.listeners === 0) this.stop?.();
    };
  }

  async loadList(): Promise<void> {
    await this.act('stories.list', async () => {
      this.list = await api.stories.list();
    });
    this.loaded = true;
    if (this.query.trim()) void this.search(this.query);
  }

  /** Each keystroke asks at once; only the answer for the text in the box is shown. */
  async search(query: string): Promise<void> {
    this.query = query;
    const seq = ++this.searchSeq;
    if (!query.trim()) {
      this.found = undefined;
      return;
    }
    try {
      const found = await api.stories.search({ query });
      if (seq === this.searchSeq) this.found = found;
    } catch (error) {
      if (seq === this.searchSeq) this.error = caught(error, 'stories.search');
    }
  }

  async select(id: number | undefined): Promise<void> {
    this.chosen = id;
    if (id === undefined) {
      this.open = undefined;
      return;
    }
    await this.act('stories.get', async () => {
      const story = await api.stories.get({ id });
      if (this.chosen === id) this.open = story;
    });
  }

  async create(name: string): Promise<Story | undefined> {
    return this.act('stories.create', async () => {
      const story = await api.stories.create({ name });
      this.chosen = story.id;
      this.open = story;
      await this.loadList();
      this.notice = `Story “${story.name}” created.`;
      return story;
    });
  }

  async rename(id: number, name: string): Promise<void> {
    await this.act('stories.rename', async () => {
      this.take(await api.stories.rename({ id, name }));
      this.notice = 'Story renamed.';
    });
  }

  async remove(id: number): Promise<void> {
    await this.act('stories.delete', async () => {
      await api.stories.delete({ id });
      if (this.chosen === id) this.chosen = undefined;
      if (this.open?.id === id) this.open = undefined;
      this.list = this.list.filter((story) => story.id !== id);
      this.notice = 'Story deleted.';
    });
  }

  /**
   * Adds a highlight as a quote at the end of a story (a new one when `story` is a name). A story
   * that already quotes it answers where, and nothing is added unless `again` says so.
   */
  async addQuote(
    story: number | string,
    highlightId: number,
    { again = false }: { again?: boolean } = {},
  ): Promise<AddQuoteOutcome | undefined> {
    return this.act('stories.addQuote', async () => {
      const storyId = typeof story === 'number' ? story : (await api.stories.create({ name: story })).id;
      let updated: Story;
      try {
        updated = await api.stories.addQuote({ storyId, highlightId, ...(again ? { again } : {}) });
      } catch (error) {
        const already = alreadyInStory(error);
        if (already) return { already };
        throw error;
      }
      this.take(updated);
      this.notice = `Added to “${updated.name}”.`;
      return { added: updated };
    });
  }

  async addText(storyId: number, text: string, index?: number): Promise<void> {
    await this.act('stories.addText', async () => {
      this.take(await api.stories.addText({ storyId, text, ...(index !== undefined ? { index } : {}) }));
      this.notice = 'Text added.';
    });
  }

  async editText(storyId: number, itemId: number, text: string): Promise<void> {
    await this.act('stories.editText', async () => {
      this.take(await api.stories.editText({ storyId, itemId, text }));
      this.notice = 'Text saved.';
    });
  }

  async removeItem(storyId: number, itemId: number): Promise<void> {
    await this.act('stories.removeItem', async () => {
      this.take(await api.stories.removeItem({ storyId, itemId }));
      this.notice = 'Removed from the story.';
    });
  }

  /** Moves an item to `index`, shown at once; main's answer (or the old order, if refused) replaces it. */
  async move(storyId: number, itemId: number, index: number): Promise<void> {
    const before = this.open;
    if (before?.id === storyId) {
      const from = before.items.findIndex((item) => item.id === itemId);
      this.open = { ...before, items: reorder(before.items, from, index) };
    }
    const done = await this.act('stories.moveItem', async () => {
      this.take(await api.stories.moveItem({ storyId, itemId, index }));
      this.notice = `Moved to position ${index + 1}.`;
      return true;
    });
    if (!done && before && this.open?.id === before.id) this.open = before;
  }

  async trim(storyId: number, itemId: number, startMs: number, endMs: number): Promise<void> {
    await this.act('stories.trimQuote', async () => {
      this.take(await api.stories.trimQuote({ storyId, itemId, startMs, endMs }));
      this.notice = 'Quote trimmed.';
    });
  }

  /** A story main answered: shown if it is the open one, and its line of the list updated. */
  private take(story: Story): void {
    if (this.chosen === undefined || this.chosen === story.id) {
      this.chosen = story.id;
      this.open = story;
    }
    const { items, ...summary } = story;
    void items;
    this.list = this.list.some((each) => each.id === story.id)
      ? this.list.map((each) => (each.id === story.id ? summary : each))
      : [...this.list, summary];
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

/** What adding a quote did: added it, or found the story already has it (and where). */
export type AddQuoteOutcome = { added: Story } | { already: QuoteAlreadyInStory };

/** The story that already quotes the highlight, when that is why main refused to add it. */
function alreadyInStory(error: unknown): QuoteAlreadyInStory | undefined {
  if (!(error instanceof VerbatimError) || error.code !== 'conflict') return undefined;
  const parsed = quoteAlreadyInStorySchema.safeParse(error.details);
  return parsed.success ? parsed.data : undefined;
}

export const stories = new StoriesStore();
