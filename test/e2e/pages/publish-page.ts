import type { Locator, Page } from '@playwright/test';

/** "Publish to newsroom…" and the publication state it leads to, in the reader and the library. */
export class PublishPage {
  readonly dialog: Locator;
  readonly desk: Locator;
  readonly confidential: Locator;
  readonly withRecording: Locator;
  readonly publish: Locator;
  readonly desksMessage: Locator;
  /** The state in the reader's header ("Published · rev 2"). */
  readonly state: Locator;
  /** Under the state, what of the audio did not go with it, and why. */
  readonly audioNote: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: /^Publish .*to newsroom$/ });
    this.desk = this.dialog.getByLabel('Desk');
    this.confidential = this.dialog.getByRole('checkbox', { name: 'Confidential' });
    this.withRecording = this.dialog.getByRole('checkbox', { name: 'With the recording' });
    this.publish = this.dialog.getByRole('button', { name: 'Publish', exact: true });
    this.desksMessage = this.dialog.getByTestId('desks-message');
    this.state = page.getByTestId('publication-state').getByRole('status');
    this.audioNote = page.getByTestId('publication-audio-note');
  }

  /** A library row's state badge. */
  badge(row: Locator): Locator {
    return row.getByTestId('publication-badge');
  }

  /** Tabs to the Publish button, as a keyboard user does, and presses Enter. */
  async publishWithKeyboard(): Promise<void> {
    for (let step = 0; step < 8; step++) {
      if (await this.publish.evaluate((button) => button === document.activeElement)) break;
      await this.page.keyboard.press('Tab');
    }
    await this.page.keyboard.press('Enter');
  }

  /** Points Settings' newsroom at `address` with this password, through the page's bridge. */
  async setNewsroom(address: string, password: string): Promise<void> {
    await this.page.evaluate(
      async ({ address, password }) => {
        const bridge = (
          window as unknown as {
            api: {
              newsroom: {
                setSettings(input: unknown): Promise<{ ok: boolean; error?: { message: string } }>;
              };
            };
          }
        ).api;
        const envelope = await bridge.newsroom.setSettings({ address, password });
        if (!envelope.ok) throw new Error(envelope.error?.message);
      },
      { address, password },
    );
  }
}
