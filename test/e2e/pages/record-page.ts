import { expect, type Locator, type Page } from '@playwright/test';

/** The Record view (issues #23, #33), as a journalist works it. */
export class RecordPage {
  readonly main: Locator;
  /** The recorder's card: state, input, timer, waveform, meter, timeline and buttons. */
  readonly recorder: Locator;
  /** The state badge: Ready, Recording, Paused or Stopped, also as its `data-state`. */
  readonly state: Locator;
  readonly elapsed: Locator;
  readonly level: Locator;
  readonly waveform: Locator;
  readonly timeline: Locator;
  readonly diskLeft: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
    this.recorder = this.main.getByRole('region', { name: 'Recorder' });
    this.state = this.recorder.getByRole('status');
    this.elapsed = this.recorder.getByRole('timer', { name: 'Recorded time' });
    this.level = this.recorder.getByRole('meter', { name: 'Input level' });
    this.waveform = this.recorder.getByRole('img', { name: 'The input over the last 30 seconds' });
    this.timeline = this.recorder.getByRole('list', { name: 'Marks on the timeline' });
    this.diskLeft = this.recorder.getByText(/ of disk left$/);
  }

  async open(): Promise<void> {
    await this.page.keyboard.press('Control+3');
    await expect(this.main.getByRole('heading', { level: 1 })).toHaveText('Record');
  }

  button(name: string | RegExp): Locator {
    return this.main.getByRole('button', { name, exact: true });
  }

  /** The state as said and as drawn: its word, the badge's and the timer's `data-state`. */
  async expectState(word: 'Ready' | 'Recording' | 'Paused' | 'Stopped'): Promise<void> {
    await expect(this.state).toHaveText(word);
    await expect(this.state).toHaveAttribute('data-state', word.toLowerCase());
    await expect(this.elapsed).toHaveAttribute('data-state', word.toLowerCase());
  }

  /** Seconds shown on the recorder's clock ("0:07" is 7). */
  async elapsedSeconds(): Promise<number> {
    const [minutes, seconds] = (await this.elapsed.innerText()).trim().split(':').map(Number);
    return (minutes ?? 0) * 60 + (seconds ?? 0);
  }

  async waitForElapsed(seconds: number): Promise<void> {
    await expect.poll(() => this.elapsedSeconds(), { timeout: 20_000 }).toBeGreaterThanOrEqual(seconds);
  }

  /** The meter's level now and the peak it holds, read together. */
  meter(): Promise<{ level: number; peak: number }> {
    return this.level.evaluate((meter) => ({
      level: Number(meter.getAttribute('aria-valuenow')),
      peak: Number(meter.getAttribute('data-peak')),
    }));
  }

  /** Waveform bars drawn taller than silence's one-unit line. */
  drawnBars(): Promise<number> {
    return this.waveform
      .locator('rect.bar')
      .evaluateAll((bars) => bars.filter((bar) => Number(bar.getAttribute('height')) > 1).length);
  }

  /** Where a mark stands on the timeline, 0 at its start and 1 at its end. */
  async markPosition(mark: Locator): Promise<number> {
    const track = (await this.timeline.boundingBox())!;
    const box = (await mark.boundingBox())!;
    return (box.x - track.x) / track.width;
  }
}
