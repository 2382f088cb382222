import type { Locator, Page } from '@playwright/test';

/** The Ask panel beside the transcript: ready-made asks, the chat, and the composer. */
export class AskPanel {
  readonly panel: Locator;
  readonly switchButton: Locator;
  readonly question: Locator;
  readonly askButton: Locator;
  readonly stopButton: Locator;
  readonly streaming: Locator;
  readonly answers: Locator;
  readonly quotes: Locator;
  readonly log: Locator;
  readonly clearButton: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('region', { name: 'Ask the transcript' });
    this.switchButton = page.getByRole('group', { name: 'Side panel' }).getByRole('button', { name: 'Ask' });
    this.question = this.panel.getByRole('textbox', { name: 'Your question' });
    this.askButton = this.panel.getByRole('button', { name: 'Ask', exact: true });
    this.stopButton = this.panel.getByRole('button', { name: 'Stop' });
    this.streaming = this.panel.getByTestId('ask-streaming');
    this.answers = this.panel.getByTestId('ask-answer');
    this.quotes = this.panel.getByTestId('ask-quotes').getByRole('listitem');
    this.log = this.panel.getByTestId('ask-log');
    this.clearButton = this.panel.getByRole('button', { name: 'Clear', exact: true });
  }

  async open(): Promise<void> {
    await this.switchButton.click();
    await this.panel.waitFor();
  }

  /** Asks a question and waits for its answer to be saved and shown. */
  async ask(question: string): Promise<void> {
    const before = await this.answers.count();
    await this.question.fill(question);
    await this.question.press('Enter');
    await this.answers.nth(before).waitFor();
  }

  /** How far the conversation is from showing its newest line, in pixels (0: at the bottom). */
  distanceFromNewest(): Promise<number> {
    return this.log.evaluate((log) => log.scrollHeight - log.scrollTop - log.clientHeight);
  }

  readyMade(label: string): Locator {
    return this.panel
      .getByRole('group', { name: 'Ready-made asks' })
      .getByRole('button', { name: label, exact: true });
  }

  /** Records every text the streaming answer shows until it is replaced by the saved answer. */
  async recordStreaming(): Promise<void> {
    await this.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { streamed: string[] }).streamed = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="ask-streaming"]')?.textContent ?? '';
        if (text && text !== '…' && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  }

  streamedTexts(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { streamed: string[] }).streamed);
  }

  timeButton(index: number): Locator {
    return this.quotes.nth(index).getByRole('button', { name: /^Play from/ });
  }
}
