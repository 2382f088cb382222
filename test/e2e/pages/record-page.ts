import { expect, type Locator, type Page } from '@playwright/test';

/** The Record view (issue #23), as a journalist works it. */
export class RecordPage {
  readonly main: Locator;
  readonly state: Locator;
  readonly elapsed: Locator;
  readonly level: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
    this.state = this.main.getByRole('status').filter({ hasText: /Recording|Paused|Ready to record/ });
    this.elapsed = this.main.getByLabel('Recorded time');
    this.level = this.main.getByLabel('Input level');
  }

  async open(): Promise<void> {
    await this.page.keyboard.press('Control+3');
    await expect(this.main.getByRole('heading', { level: 1 })).toHaveText('Record');
  }

  button(name: string | RegExp): Locator {
    return this.main.getByRole('button', { name, exact: true });
  }

  /** Seconds shown on the recorder's clock ("0:07" is 7). */
  async elapsedSeconds(): Promise<number> {
    const [minutes, seconds] = (await this.elapsed.innerText()).trim().split(':').map(Number);
    return (minutes ?? 0) * 60 + (seconds ?? 0);
  }

  async waitForElapsed(seconds: number): Promise<void> {
    await expect.poll(() => this.elapsedSeconds(), { timeout: 20_000 }).toBeGreaterThanOrEqual(seconds);
  }
}
