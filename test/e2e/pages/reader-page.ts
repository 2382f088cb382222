import type { Locator, Page } from '@playwright/test';
import type { BridgeApi } from '../../../src/shared/ipc/api';

/** The page's bridge, as the renderer declares it on window. */
type WithApi = { api: BridgeApi };

/** The transcript reader: turns, words, the recording, find, speakers, panels and dialogs. */
export class ReaderPage {
  readonly heading: Locator;
  readonly transcript: Locator;
  readonly turns: Locator;
  readonly findBox: Locator;
  readonly findCount: Locator;
  readonly helpDialog: Locator;
  readonly analyses: Locator;
  readonly notice: Locator;
  /** The transport bar at the foot of the reader and its scrubber (a slider). */
  readonly transport: Locator;
  readonly scrubber: Locator;
  readonly speed: Locator;
  /** The header's "More" menu button, and the menu it opens. */
  readonly more: Locator;
  readonly moreMenu: Locator;
  /** The handle between the transcript and the side panel, and the panel itself. */
  readonly splitter: Locator;
  readonly side: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('main').getByRole('heading', { level: 1 });
    this.transcript = page.getByRole('region', { name: 'Transcript text' });
    this.turns = this.transcript.locator('article.turn');
    this.findBox = page.getByRole('searchbox', { name: 'Find in transcript' });
    this.findCount = page.getByTestId('find-count');
    this.helpDialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    this.analyses = page.getByRole('complementary', { name: 'Analyses' });
    this.notice = page.locator('.notice[role="status"]');
    this.transport = page.getByRole('group', { name: 'Recording' });
    this.scrubber = this.transport.getByRole('slider', { name: 'Position in the recording' });
    this.speed = this.transport.getByRole('combobox', { name: 'Speed' });
    this.more = page.getByRole('button', { name: 'More actions' });
    this.moreMenu = page.getByRole('menu', { name: 'More actions' });
    this.splitter = page.getByRole('separator', { name: 'Side panel width' });
    this.side = page.locator('#reader-side');
  }

  /** A button of the transport bar, by its name ("Play", "Back 5 s"). */
  transportButton(name: string): Locator {
    return this.transport.getByRole('button', { name, exact: true });
  }

  /** Opens the find bar as a journalist does, with Ctrl+F, and waits for its field. */
  async openFind(): Promise<void> {
    await this.page.keyboard.press('Control+f');
    await this.findBox.waitFor();
  }

  /** Chooses an item of the header's "More" menu ("Export…", "Delete…", "Show the machine transcript"). */
  async chooseMore(item: string): Promise<void> {
    await this.more.click();
    await this.moreMenu
      .getByRole(/^Show /.test(item) ? 'menuitemcheckbox' : 'menuitem', { name: item })
      .click();
  }

  /** Creates a transcript through the page's own bridge and answers its id. */
  async createTranscript(path: string, options: Record<string, unknown>): Promise<string> {
    return this.page.evaluate(
      async ({ path, options }) => {
        const envelope = await (window as unknown as WithApi).api.transcripts.create({
          source: { kind: 'file', path },
          options,
        });
        if (!envelope.ok) throw new Error(envelope.error.message);
        return envelope.value.id;
      },
      { path, options },
    );
  }

  /** Polls the transcript's status through the bridge until it settles. */
  async waitForStatus(id: string): Promise<string> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const status = await this.page.evaluate(async (id) => {
        const envelope = await (window as unknown as WithApi).api.transcripts.get({ id });
        return envelope.ok ? envelope.value.summary.status : 'missing';
      }, id);
      if (['completed', 'error', 'cancelled', 'missing'].includes(status)) return status;
      await this.page.waitForTimeout(100);
    }
    return 'timeout';
  }

  /** Transcribes a recording, checks that it completed, opens it in the reader, and answers its id. */
  async openNewTranscript(path: string, options: Record<string, unknown>): Promise<string> {
    const id = await this.createTranscript(path, options);
    const status = await this.waitForStatus(id);
    if (status !== 'completed') throw new Error(`The transcript ended as "${status}", not completed.`);
    await this.open(id);
    return id;
  }

  async open(id: string, atMs?: number): Promise<void> {
    // Through the library so the reader mounts afresh, as when a search hit is opened.
    await this.page.evaluate(
      async ({ id, atMs }) => {
        window.location.hash = '#/library';
        await new Promise((resolve) => setTimeout(resolve, 50));
        window.location.hash = `#/transcript/${encodeURIComponent(id)}${atMs ? `?t=${atMs}` : ''}`;
      },
      { id, atMs },
    );
    await this.waitForWholeText();
  }

  /** Until the whole transcript is in: a long one shows its first turns, read only, before. */
  async waitForWholeText(): Promise<void> {
    await this.turns.first().waitFor();
    await this.page
      .getByRole('region', { name: 'Transcript text' })
      .and(this.page.locator(':not([aria-busy="true"])'))
      .waitFor();
  }

  /** Where a word of the stored transcript starts, by its flat index, in milliseconds. */
  async wordStartMs(id: string, index: number): Promise<number> {
    return this.page.evaluate(
      async ({ id, index }) => {
        const envelope = await (window as unknown as WithApi).api.transcripts.get({ id });
        if (!envelope.ok) throw new Error(envelope.error.message);
        return envelope.value.sentences.flatMap((sentence) => sentence.words)[index]?.start ?? -1;
      },
      { id, index },
    );
  }

  word(text: string): Locator {
    return this.transcript.locator('[data-w]', { hasText: text });
  }

  speakerButtons(label: string): Locator {
    return this.transcript.locator(`button[data-speaker="${label}"]`);
  }

  async renameSpeaker(label: string, name: string): Promise<void> {
    await this.speakerButtons(label).first().click();
    const input = this.page.getByRole('textbox', { name: `New name for speaker ${label}` });
    await input.fill(name);
    await input.press('Enter');
  }

  tab(name: string): Locator {
    return this.analyses.getByRole('tab', { name });
  }

  /** The audio element's position, in seconds. */
  /** Whether the recording is paused (true before it can play). */
  paused(): Promise<boolean> {
    return this.page.evaluate(() => document.querySelector<HTMLMediaElement>('audio, video')?.paused ?? true);
  }

  /** The index of the word highlighted as spoken, or -1. */
  highlightedWord(): Promise<number> {
    return this.page.evaluate(() =>
      Number(document.querySelector('[data-w].now')?.getAttribute('data-w') ?? -1),
    );
  }

  currentTime(): Promise<number> {
    return this.page.evaluate(
      () => document.querySelector<HTMLMediaElement>('audio, video')?.currentTime ?? -1,
    );
  }

  audioReady(): Promise<number> {
    return this.page.evaluate(
      () => document.querySelector<HTMLMediaElement>('audio, video')?.readyState ?? 0,
    );
  }
}
