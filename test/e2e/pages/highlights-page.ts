import type { Locator, Page } from '@playwright/test';
import type { BridgeApi } from '../../../src/shared/ipc/api';
import { ReaderPage } from './reader-page';

/** Highlighting in the reader: select words from the caret, the Highlight dialog, the Highlights tab. */
export class ReaderHighlights {
  readonly reader: ReaderPage;
  readonly tab: Locator;
  readonly panel: Locator;
  readonly items: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.reader = new ReaderPage(page);
    this.tab = page.getByRole('group', { name: 'Side panel' }).getByRole('button', { name: 'Highlights' });
    this.panel = page.getByRole('complementary', { name: 'Highlights' });
    this.items = this.panel.getByRole('listitem');
    this.dialog = page.getByRole('dialog', { name: 'Highlight' });
  }

  /** Clicks at the start of a word (the caret goes there) and grows the selection word by word with Shift+→. */
  async selectFrom(word: string, words: number): Promise<void> {
    await this.reader
      .word(word)
      .first()
      .click({ position: { x: 1, y: 4 } });
    for (let step = 0; step < words; step++) await this.page.keyboard.press('Shift+ArrowRight');
  }

  /** Highlights the selection with Ctrl+Shift+H, a label and a note. */
  async highlight(label: string, note: string): Promise<void> {
    await this.page.keyboard.press('Control+Shift+H');
    await this.dialog.waitFor();
    await this.dialog.getByLabel('Label').selectOption({ label });
    await this.dialog.getByLabel('Note (optional)').fill(note);
    await this.dialog.getByRole('button', { name: 'Highlight' }).click();
    await this.dialog.waitFor({ state: 'detached' });
  }

  /** The highlighted words of the text, in reading order. */
  markedWords(): Promise<string[]> {
    return this.reader.transcript.locator('[data-w][data-highlight]').allTextContents();
  }
}

/** The Quotes view: search, filters and the quotes with their actions. */
export class QuotesPage {
  readonly search: Locator;
  readonly count: Locator;
  readonly quotes: Locator;

  constructor(readonly page: Page) {
    this.search = page.getByRole('searchbox', { name: 'Search highlighted words and notes' });
    this.count = page.getByTestId('quotes-count');
    this.quotes = page.getByRole('list', { name: 'Quotes' }).getByRole('listitem');
  }

  quote(text: string): Locator {
    return this.quotes.filter({ hasText: text });
  }

  /** Chooses an option of a filter menu (Label, Speaker, Tag, Transcript) by its text. */
  async filter(menu: string, option: string): Promise<void> {
    await this.page
      .getByRole('group', { name: 'Filters' })
      .getByLabel(menu, { exact: true })
      .selectOption({ label: option });
  }

  /** A filter menu's options, "Any …" first. */
  choices(menu: string): Promise<string[]> {
    return this.page
      .getByRole('group', { name: 'Filters' })
      .getByLabel(menu, { exact: true })
      .locator('option')
      .allTextContents();
  }

  /** "Add to story…" on a quote, to a story chosen by name or (`newStory`) made for it. */
  async addToStory(text: string, story: string, newStory = false): Promise<void> {
    await this.quote(text)
      .getByRole('button', { name: /^Add to story… / })
      .click();
    const dialog = this.page.getByRole('dialog', { name: 'Add to story' });
    if (newStory) {
      await dialog.getByLabel('Story', { exact: true }).selectOption({ label: 'A new story…' });
      await dialog.getByLabel('New story’s name').fill(story);
    } else {
      await dialog.getByLabel('Story', { exact: true }).selectOption({ label: story });
    }
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
}

/** The Stories view: the list of stories and the open story set as a document, item by item. */
export class StoriesPage {
  readonly list: Locator;
  readonly items: Locator;
  readonly newText: Locator;
  readonly addText: Locator;
  readonly play: Locator;

  constructor(readonly page: Page) {
    this.list = page.getByRole('navigation', { name: 'Stories' });
    this.items = page.getByRole('list', { name: /^Items of / }).getByRole('listitem');
    this.newText = page.getByLabel('Add your own text');
    this.addText = page.getByRole('button', { name: 'Add text' });
    this.play = page.getByRole('button', { name: 'Play the story' });
  }

  async open(name: string): Promise<void> {
    await this.list.getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await this.page.getByRole('heading', { level: 2, name }).waitFor();
  }

  /**
   * Makes a story through the page's own bridge, as the Quotes view would: one quote per entry,
   * the first sentence of its transcript that contains `containing`, highlighted whole.
   */
  async createStoryQuoting(
    name: string,
    quotes: { transcriptId: string; containing: string }[],
  ): Promise<void> {
    await this.page.evaluate(
      async ({ name, quotes }) => {
        const api = (window as unknown as { api: BridgeApi }).api;
        const value = <T>(
          envelope: { ok: true; value: T } | { ok: false; error: { message: string } },
        ): T => {
          if (!envelope.ok) throw new Error(envelope.error.message);
          return envelope.value;
        };
        const story = value(await api.stories.create({ name }));
        for (const quote of quotes) {
          const detail = value(await api.transcripts.get({ id: quote.transcriptId }));
          const sentence = detail.sentences.find((s) => s.text.includes(quote.containing));
          if (!sentence) throw new Error(`No sentence of ${quote.transcriptId} says "${quote.containing}".`);
          const highlight = value(
            await api.highlights.create({
              transcriptId: quote.transcriptId,
              startMs: sentence.startMs,
              endMs: sentence.endMs,
            }),
          );
          value(await api.stories.addQuote({ storyId: story.id, highlightId: highlight.id }));
        }
      },
      { name, quotes },
    );
  }

  /** The grip that moves the item at `index` (dragged, or Alt+↑/↓ while focused). */
  handle(index: number): Locator {
    return this.items.nth(index).getByRole('button', { name: /^Move the (quote|text) / });
  }

  /** The items' text in order (quotes with their source line). */
  itemTexts(): Promise<string[]> {
    return this.items.allInnerTexts();
  }
}
