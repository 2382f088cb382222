import type { Locator, Page } from '@playwright/test';
import type { BridgeApi } from '../../../src/shared/ipc/api';
import type { TranscriptDetail } from '../../../src/shared/ipc/contract';

/** The page's bridge, as the renderer declares it on window. */
type WithApi = { api: BridgeApi };

/** The reader's find and replace bar: count, toggles, the replace row and its result. */
export class FindReplaceBar {
  readonly findBox: Locator;
  readonly count: Locator;
  readonly wholeWord: Locator;
  readonly matchCase: Locator;
  readonly replaceBox: Locator;
  readonly replaceButton: Locator;
  readonly replaceAllButton: Locator;
  readonly result: Locator;

  constructor(readonly page: Page) {
    this.findBox = page.getByRole('searchbox', { name: 'Find in transcript' });
    this.count = page.getByTestId('find-count');
    const find = page.getByRole('search', { name: 'Find in transcript' });
    this.wholeWord = find.getByRole('button', { name: 'Whole word' });
    this.matchCase = find.getByRole('button', { name: 'Match case' });
    const replace = page.getByRole('group', { name: 'Replace' });
    this.replaceBox = replace.getByRole('textbox', { name: 'Replace with' });
    this.replaceButton = replace.getByRole('button', { name: 'Replace', exact: true });
    this.replaceAllButton = replace.getByRole('button', { name: 'Replace all' });
    this.result = page.getByTestId('replace-result');
  }
}

/** The reader's Review tab: progress, the paragraphs with their stamps, the review actions. */
export class ReviewPanel {
  readonly tab: Locator;
  readonly panel: Locator;
  readonly progress: Locator;
  readonly progressBar: Locator;
  readonly markPlaying: Locator;
  /** The reader header's short progress ("Checked 1/12"). */
  readonly headerProgress: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('group', { name: 'Side panel' }).getByRole('button', { name: 'Review' });
    this.panel = page.getByRole('complementary', { name: 'Review' });
    this.progress = page.getByTestId('review-progress');
    this.progressBar = this.panel.getByRole('progressbar', { name: 'Paragraphs checked against the audio' });
    this.markPlaying = this.panel.getByRole('button', { name: 'Mark the paragraph now playing as checked' });
    this.headerProgress = page.getByTestId('review-meta');
  }

  /** The checkbox that stamps paragraph `index` (0-based) as checked against the audio. */
  checkbox(index: number): Locator {
    return this.panel.getByRole('checkbox', {
      name: new RegExp(`^Paragraph ${index + 1} checked against the audio`),
    });
  }

  /** The row of paragraph `index` (0-based), with its time and stamp. */
  row(index: number): Locator {
    // `has` is matched inside each item, so its locator starts from the page, not the panel.
    const checkbox = this.page.getByRole('checkbox', {
      name: new RegExp(`^Paragraph ${index + 1} checked against the audio`),
    });
    return this.panel.getByRole('listitem').filter({ has: checkbox });
  }
}

/** The stored transcript, read through the page's own bridge. */
export async function storedTranscript(page: Page, id: string): Promise<TranscriptDetail> {
  return page.evaluate(async (id) => {
    const envelope = await (window as unknown as WithApi).api.transcripts.get({ id });
    if (!envelope.ok) throw new Error(envelope.error.message);
    return envelope.value;
  }, id);
}

/** Stamps paragraphs through the bridge, as another window of the app would. */
export async function checkParagraphs(page: Page, id: string, paragraphs: number[]): Promise<void> {
  await page.evaluate(
    async ({ id, paragraphs }) => {
      for (const paragraph of paragraphs) {
        const envelope = await (window as unknown as WithApi).api.corrections.check({
          id,
          paragraph,
          checked: true,
        });
        if (!envelope.ok) throw new Error(envelope.error.message);
      }
    },
    { id, paragraphs },
  );
}
