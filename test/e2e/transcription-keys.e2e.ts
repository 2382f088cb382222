import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, fixtureDir, screenshotDir } from './fixtures';
import { ReaderPage } from './pages/reader-page';

/**
 * Transcribing with the keyboard (issue #19): the play/pause key and Ctrl+Space with the caret
 * in the transcript text, the rewind on resuming, auto-pause while typing, speed and skips that
 * work while typing, play from the caret, the key changed in Settings, and the help listing them.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

/** Puts a collapsed caret inside the first word containing `text`, as a click in editable text would. */
async function putCaretIn(page: Page, text: string, offset = 2): Promise<number> {
  return page.evaluate(
    ({ text, offset }) => {
      const word = [...document.querySelectorAll<HTMLElement>('[data-w]')].find((candidate) =>
        candidate.textContent?.includes(text),
      );
      const node = word?.firstChild;
      if (!word || !node) throw new Error(`no word "${text}" in the page`);
      const range = document.createRange();
      range.setStart(node, Math.min(offset, node.textContent?.length ?? 0));
      range.collapse(true);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      return Number(word.dataset.w);
    },
    { text, offset },
  );
}

/** The recording's playback rate, as the element has it. */
function playbackRate(page: Page): Promise<number | undefined> {
  return page.evaluate(() => document.querySelector('audio')?.playbackRate);
}

test.describe('transcribing with the keyboard', () => {
  let reader: ReaderPage;
  let id: string;

  test.beforeEach(async ({ shell, page }) => {
    await shell.open();
    reader = new ReaderPage(page);
    id = await reader.openNewTranscript(interview, { speaker_labels: true });
    await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);
  });

  test('Escape and Ctrl+Space play and pause with focus in the text; playing again goes back 2 s', async ({
    page,
  }) => {
    await reader.transcript.focus();
    await putCaretIn(page, 'Northwind');
    expect(await reader.paused()).toBe(true);

    await page.keyboard.press('Escape');
    await expect.poll(() => reader.paused()).toBe(false);
    await page.keyboard.press('Escape');
    await expect.poll(() => reader.paused()).toBe(true);
    // The keys kept the caret where it was: focus and selection are still in the text.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Transcript text',
    );
    expect(
      await page.evaluate(() => window.getSelection()?.anchorNode?.parentElement?.textContent),
    ).toContain('Northwind');

    await page.keyboard.press('Control+Space');
    await expect.poll(() => reader.paused()).toBe(false);
    // Let it play past the first two seconds, so the rewind is not cut short by the start.
    await expect.poll(() => reader.currentTime(), { timeout: 10_000 }).toBeGreaterThan(3);
    await page.keyboard.press('Control+Space');
    await expect.poll(() => reader.paused()).toBe(true);
    const pausedAt = await reader.currentTime();

    await page.keyboard.press('Escape');
    const resumedAt = await reader.currentTime();
    expect(resumedAt).toBeGreaterThanOrEqual(pausedAt - 2.05);
    expect(resumedAt).toBeLessThan(pausedAt - 1.5);
    await expect.poll(() => reader.paused()).toBe(false);
    await page.keyboard.press('Escape');
    await expect.poll(() => reader.paused()).toBe(true);
  });

  test('typing in the transcript text pauses the recording; the key plays on from 2 s earlier', async ({
    page,
  }) => {
    // The inline editor makes turns editable; a contenteditable paragraph stands in for it here.
    // Found by its turn's index: the typed text changes the words a text filter would match.
    const turn = await reader.turns.filter({ hasText: 'Northwind' }).first().getAttribute('data-turn');
    const paragraph = reader.transcript.locator(`article.turn[data-turn="${turn}"] p`);
    await paragraph.evaluate((element) => element.setAttribute('contenteditable', 'true'));
    await reader.word('Northwind').first().click();
    await expect.poll(() => reader.paused()).toBe(false);
    await expect(paragraph).toBeFocused();

    await page.keyboard.type('x');
    await expect.poll(() => reader.paused()).toBe(true);
    await expect(reader.notice).toHaveText('Paused while you type. Esc plays on from 2 s earlier.');
    const pausedAt = await reader.currentTime();
    expect(pausedAt).toBeGreaterThan(10);
    // The key is pressed with the caret still in the edited text.
    await expect(paragraph).toBeFocused();

    await page.keyboard.press('Escape');
    const resumedAt = await reader.currentTime();
    expect(resumedAt).toBeGreaterThanOrEqual(pausedAt - 2.05);
    expect(resumedAt).toBeLessThan(pausedAt - 1.5);
    await expect.poll(() => reader.paused()).toBe(false);
    // Ctrl+[ and ] change the speed while typing, where a plain [ is typed into the text.
    await page.keyboard.press('Control+]');
    await expect.poll(() => playbackRate(page)).toBe(1.25);
    await page.keyboard.press('Control+[');
    await page.keyboard.press('Control+[');
    await expect.poll(() => playbackRate(page)).toBe(0.75);
    await expect(page.getByRole('combobox', { name: 'Speed' })).toHaveValue('0.75');
    await page.keyboard.press('Escape');
    await expect.poll(() => reader.paused()).toBe(true);
    await expect(paragraph).toBeFocused();
    await expect(paragraph).not.toContainText('[');
  });

  test('with auto-pause turned off in Settings, typing leaves the recording playing', async ({
    page,
    shell,
  }) => {
    await shell.goTo('settings');
    const autoPause = page.getByRole('checkbox', {
      name: 'Pause the recording while I type in the transcript',
    });
    await expect(autoPause).toBeChecked();
    await autoPause.uncheck();
    await page.getByText('Saved.', { exact: true }).waitFor();
    await reader.open(id);
    await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);
    const paragraph = reader.turns.filter({ hasText: 'Northwind' }).first().locator('p');
    await paragraph.evaluate((element) => element.setAttribute('contenteditable', 'true'));
    await reader.word('Northwind').first().click();
    await expect.poll(() => reader.paused()).toBe(false);
    await page.keyboard.type('xyz');
    await page.waitForTimeout(300);
    expect(await reader.paused()).toBe(false);
  });

  test('Ctrl+[ and ] change the speed and Ctrl+Shift+[ and ] skip, from the text', async ({ page }) => {
    await reader.transcript.focus();
    await page.keyboard.press('Control+]');
    await expect.poll(() => playbackRate(page)).toBe(1.25);
    await page.keyboard.press('Control+[');
    await page.keyboard.press('Control+[');
    await expect.poll(() => playbackRate(page)).toBe(0.75);

    await page.keyboard.press('Control+Shift+]');
    await page.keyboard.press('Control+Shift+]');
    await expect.poll(() => reader.currentTime()).toBeCloseTo(10, 1);
    await page.keyboard.press('Control+Shift+[');
    await expect.poll(() => reader.currentTime()).toBeCloseTo(5, 1);
    expect(await reader.paused()).toBe(true);
  });

  test('Ctrl+Enter plays from the word the caret is in', async ({ page }) => {
    await reader.transcript.focus();
    const index = await putCaretIn(page, 'Northwind', 3);
    const startMs = await reader.wordStartMs(id, index);
    expect(startMs).toBeGreaterThan(10_000);

    await page.keyboard.press('Control+Enter');
    await expect.poll(() => reader.paused()).toBe(false);
    const at = await reader.currentTime();
    expect(at).toBeGreaterThanOrEqual(startMs / 1000 - 0.05);
    expect(at).toBeLessThan(startMs / 1000 + 1);

    // A selection plays from its first word, wherever playback was.
    const sailing = await putCaretIn(page, 'sailing', 0);
    const sailingMs = await reader.wordStartMs(id, sailing);
    expect(Math.abs(sailingMs - startMs)).toBeGreaterThan(3000);
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => reader.currentTime()).toBeGreaterThanOrEqual(sailingMs / 1000 - 0.05);
    expect(await reader.currentTime()).toBeLessThan(sailingMs / 1000 + 1);
  });

  test('the key changed in Settings takes effect and shows in the help; keys that type are refused', async ({
    page,
    shell,
  }) => {
    await reader.heading.focus();
    await page.keyboard.press('?');
    await expect(reader.helpDialog).toBeVisible();
    for (const text of ['Esc', 'Ctrl+Space', 'Ctrl+[', 'Ctrl+]', 'Ctrl+Shift+[', 'Ctrl+Enter', 'Ctrl+F']) {
      await expect(reader.helpDialog.locator('kbd', { hasText: text }).first()).toBeVisible();
    }
    await expect(reader.helpDialog).toContainText('Play or pause; playing again goes back 2 s');
    await expect(reader.helpDialog).toContainText('Play from the word at the caret');
    const help = await new AxeBuilder({ page }).include('dialog[open]').analyze();
    expect(help.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(reader.helpDialog).toBeHidden();

    await shell.goTo('settings');
    const section = page.getByRole('group', { name: 'Transcribing with the keyboard' });
    const shownKey = section.getByTestId('play-pause-key');
    await expect(shownKey).toHaveText('Esc');
    const change = section.getByRole('button', { name: 'Change key' });
    await change.click();
    await expect(section.getByRole('button', { name: 'Press a key…' })).toBeFocused();
    await page.keyboard.press('a');
    await expect(section).toContainText('A types a character.');
    await page.keyboard.press('Space');
    await expect(section).toContainText('Space types a character.');
    await page.keyboard.press('Enter');
    await expect(section).toContainText('Enter is needed for typing and moving the caret.');
    await expect(shownKey).toHaveText('Esc');
    await section.screenshot({ path: join(screenshotDir, 'settings-transcription-keys.png') });
    const settingsPage = await new AxeBuilder({ page }).include('main').analyze();
    expect(settingsPage.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual(
      [],
    );

    await page.keyboard.press('F4');
    await expect(shownKey).toHaveText('F4');
    await expect(section.getByRole('button', { name: 'Change key' })).toBeVisible();
    await expect(section).not.toContainText('types a character');
    const rewind = section.getByRole('spinbutton', { name: 'Go back when playing again (seconds)' });
    await rewind.fill('12');
    await expect(section).toContainText('Give a number of seconds from 0 to 10.');
    await rewind.fill('3');
    await rewind.press('Tab');
    await expect.poll(() => section.getByText('Give a number of seconds').count()).toBe(0);

    await reader.open(id);
    await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);
    await reader.transcript.focus();
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await reader.paused()).toBe(true);
    await page.keyboard.press('F4');
    await expect.poll(() => reader.paused()).toBe(false);
    await expect.poll(() => reader.currentTime(), { timeout: 10_000 }).toBeGreaterThan(4);
    await page.keyboard.press('F4');
    await expect.poll(() => reader.paused()).toBe(true);
    const pausedAt = await reader.currentTime();
    await page.keyboard.press('F4');
    // The rewind changed in Settings: 3 s now.
    const resumedAt = await reader.currentTime();
    expect(resumedAt).toBeGreaterThanOrEqual(pausedAt - 3.05);
    expect(resumedAt).toBeLessThan(pausedAt - 2.5);
    await page.keyboard.press('F4');
    await expect.poll(() => reader.paused()).toBe(true);

    await reader.heading.focus();
    await page.keyboard.press('?');
    await expect(reader.helpDialog.locator('kbd', { hasText: 'F4' })).toBeVisible();
    await expect(reader.helpDialog).toContainText('Play or pause; playing again goes back 3 s');
    await page.screenshot({ path: join(screenshotDir, 'reader-help-transcription-keys.png') });
    await page.keyboard.press('Escape');
  });
});
