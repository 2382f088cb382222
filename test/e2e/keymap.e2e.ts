import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, fixtureDir } from './fixtures';
import { ReaderPage } from './pages/reader-page';

/**
 * Keys as data (issue #34): a reader command rebound in Settings works by keyboard in the reader,
 * its old key no longer does, the help and the tooltip show the new key, a key another command
 * uses is refused naming it, and the binding is still there after a reload.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

/** Settings' "Keyboard shortcuts" section. */
function shortcutsSection(page: Page): Locator {
  return page.getByRole('group', { name: 'Keyboard shortcuts' });
}

/** One command's row in that section, by its description. */
function commandRow(page: Page, command: string): Locator {
  return shortcutsSection(page).locator(`li[data-command="${command}"]`);
}

test('a reader command rebound in Settings works by its new key, shows it everywhere, and persists', async ({
  shell,
  page,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(interview, { speaker_labels: true });
  await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);

  await shell.goTo('settings');
  const play = commandRow(page, 'player.toggle');
  await expect(play.locator('kbd')).toHaveText(['Space']);

  // Escape leaves the key as it is.
  await play.getByRole('button', { name: 'Change: Play or pause' }).click();
  await expect(play.getByRole('button', { name: 'Press a key for Play or pause' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(play.getByRole('button', { name: 'Change: Play or pause' })).toBeVisible();
  await expect(play.locator('kbd')).toHaveText(['Space']);

  // A key another command answers to is refused, naming that command; Cancel keeps both.
  await play.getByRole('button', { name: 'Change: Play or pause' }).click();
  await page.keyboard.press('Control+f');
  await expect(play.getByRole('alert')).toHaveText(
    /Ctrl\+F already does “Find in the transcript”\. Swap the two keys, or choose another\./,
  );
  await play.getByRole('button', { name: 'Cancel' }).click();
  await expect(play.getByRole('alert')).toHaveCount(0);
  await expect(play.locator('kbd')).toHaveText(['Space']);

  await play.getByRole('button', { name: 'Change: Play or pause' }).click();
  await page.keyboard.press('k');
  await expect(play.locator('kbd')).toHaveText(['K']);
  await expect(play.getByRole('button', { name: 'Reset: Play or pause' })).toBeEnabled();
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  await reader.open(id);
  await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);
  await reader.heading.focus();
  await page.keyboard.press('k');
  await expect.poll(() => reader.paused()).toBe(false);
  await page.keyboard.press('k');
  await expect.poll(() => reader.paused()).toBe(true);
  // The old key no longer plays: the next key pressed after it still finds the recording paused.
  await page.keyboard.press('Space');
  await page.keyboard.press('?');
  await expect(reader.helpDialog).toBeVisible();
  expect(await reader.paused()).toBe(true);

  const listening = reader.helpDialog.locator('dt', { has: page.locator('kbd', { hasText: /^K$/ }) });
  await expect(listening).toHaveCount(1);
  await expect(listening.locator('+ dd')).toHaveText('Play or pause');
  await expect(reader.helpDialog.locator('kbd', { hasText: /^Space$/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(reader.helpDialog).toBeHidden();

  const playButton = reader.transportButton('Play');
  await expect(playButton).toHaveAttribute('aria-keyshortcuts', 'K');
  await playButton.hover();
  await expect(page.locator('.tooltip kbd')).toHaveText('K');

  // Main keeps it: after a reload the reader still answers to K.
  await page.reload();
  await expect(reader.heading).toBeVisible();
  await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);
  await reader.heading.focus();
  await page.keyboard.press('k');
  await expect.poll(() => reader.paused()).toBe(false);
  await page.keyboard.press('k');
  await expect.poll(() => reader.paused()).toBe(true);
});

test("the Library's search key is in the keymap: rebound in Settings it takes the new key, and the help lists it", async ({
  shell,
  page,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(interview, { speaker_labels: true });

  await shell.goTo('settings');
  const search = commandRow(page, 'library.search-from-list');
  await expect(search.locator('kbd')).toHaveText(['/']);
  await search
    .getByRole('button', { name: 'Change: Search the library, when not typing in a field' })
    .click();
  await page.keyboard.press('s');
  await expect(search.locator('kbd')).toHaveText(['S']);

  await shell.goTo('library');
  const heading = page.getByRole('heading', { name: 'Library', level: 1 });
  const searchBox = page.locator('#library-search');
  await heading.click();
  await page.keyboard.press('s');
  await expect(searchBox).toBeFocused();
  // The old key no longer searches: "/" pressed away from the box leaves the focus where it is.
  await heading.click();
  await page.keyboard.press('/');
  await expect(heading).toBeFocused();

  await reader.open(id);
  await reader.heading.focus();
  await page.keyboard.press('?');
  await expect(reader.helpDialog).toBeVisible();
  const row = reader.helpDialog.locator('dt', { has: page.locator('kbd', { hasText: /^S$/ }) });
  await expect(row.locator('+ dd')).toHaveText('Search the library, when not typing in a field');
  await expect(reader.helpDialog.locator('dd', { hasText: 'Mark this moment, while recording' })).toHaveCount(
    1,
  );
});
