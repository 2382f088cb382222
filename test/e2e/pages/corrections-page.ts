import type { Locator, Page } from '@playwright/test';
import type { BridgeApi } from '../../../src/shared/ipc/api';
import { ReaderPage } from './reader-page';

type WithApi = { api: BridgeApi };

/** The correction workspace in the reader: a turn retyped in place, its menu, undo and redo. */
export class CorrectionsPage {
  readonly reader: ReaderPage;
  /** The turn open for typing (one at a time). */
  readonly editor: Locator;
  readonly undo: Locator;
  readonly redo: Locator;
  readonly machineToggle: Locator;
  readonly machineLabel: Locator;
  readonly menu: Locator;

  constructor(readonly page: Page) {
    this.reader = new ReaderPage(page);
    this.editor = page.getByRole('textbox', { name: /^Correct the text of/ });
    const toolbar = page.getByRole('toolbar', { name: 'Corrections' });
    this.undo = toolbar.getByRole('button', { name: /^Undo/ });
    this.redo = toolbar.getByRole('button', { name: /^Redo/ });
    // In the header's "More" menu: open it (reader.more) before clicking this.
    this.machineToggle = page.getByRole('menuitemcheckbox', { name: 'Show the machine transcript' });
    this.machineLabel = page.getByText(
      'The machine transcript: the service’s words before your corrections.',
    );
    this.menu = page.getByRole('dialog', { name: /^Correct this turn of/ });
  }

  /** Shows or hides the machine transcript from the header's "More" menu. */
  async toggleMachine(): Promise<void> {
    await this.reader.more.click();
    await this.machineToggle.click();
  }

  /** The turn (article) holding a word with this text. */
  turnWith(text: string): Locator {
    // `has` is looked for inside each turn, so it starts from the page, not from the region.
    return this.reader.turns.filter({ has: this.page.locator('[data-w]', { hasText: text }) }).first();
  }

  /** Clicks a word (it plays from there, the caret left in it), opens its turn with Enter, and selects the word in it. */
  async selectWordInEditor(text: string): Promise<void> {
    await this.reader.word(text).first().click();
    await this.page.keyboard.press('Enter');
    await this.editor.waitFor();
    await this.editor.evaluate((element, text) => {
      const node = element.firstChild;
      const at = node?.textContent?.indexOf(text) ?? -1;
      if (!node || at < 0) throw new Error(`"${text}" is not in the editor`);
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
    }, text);
  }

  /** Retypes one word of a turn and leaves it with Enter. */
  async retype(word: string, replacement: string): Promise<void> {
    await this.selectWordInEditor(word);
    await this.page.keyboard.type(replacement);
    await this.page.keyboard.press('Enter');
    await this.editor.waitFor({ state: 'detached' });
  }

  /** The stored (corrected) words through the page's bridge, as the service answers them. */
  async storedWords(id: string): Promise<{ text: string; start: number; corrected?: boolean }[]> {
    return this.page.evaluate(async (id) => {
      const envelope = await (window as unknown as WithApi).api.transcripts.get({ id });
      if (!envelope.ok) throw new Error(envelope.error.message);
      return envelope.value.sentences.flatMap((sentence) => sentence.words);
    }, id);
  }

  /** The speaker label shown on the turn holding this word. */
  speakerOf(text: string): Promise<string | null> {
    return this.turnWith(text).locator('button[data-speaker]').getAttribute('data-speaker');
  }

  /** Opens the turn's correction menu from its header button. */
  async openMenu(text: string): Promise<void> {
    const turn = this.turnWith(text);
    await turn.hover();
    await turn.getByRole('button', { name: /^Correct the speaker of this turn/ }).click();
    await this.menu.waitFor();
  }

  /** Opens the correction menu on a word, as a right click does. */
  async openMenuOnWord(text: string): Promise<void> {
    await this.reader.word(text).first().click({ button: 'right' });
    await this.menu.waitFor();
  }

  /** Gives the whole turn, the word's sentence or (split) the rest of the turn to a speaker, by its shown name. */
  async changeSpeaker(
    scope: 'turn' | 'sentence' | 'split',
    speaker: string,
    newName?: string,
  ): Promise<void> {
    await this.menu.getByLabel('Change the speaker of').selectOption(scope);
    await this.menu.getByLabel('To', { exact: true }).selectOption({ label: speaker });
    if (newName !== undefined) await this.menu.getByLabel('New speaker’s name').fill(newName);
    await this.menu.getByRole('button', { name: 'Change speaker' }).click();
    await this.menu.waitFor({ state: 'detached' });
  }
}
