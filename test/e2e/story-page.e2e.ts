import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import type { StorySummary } from '../../src/shared/highlights';
import type { AppShell } from './pages/app-shell';
import { bridgeCalls, callBridge } from './pages/bridge';
import { StoriesPage } from './pages/highlights-page';
import { ReaderPage } from './pages/reader-page';

/**
 * A story reads like the document it becomes (issue #33, point 9): a readable column, quotes as
 * cards whose grip, play, open, trim and remove are icons that do their thing, and the
 * journalist's own text edited in place (saved on leaving, Escape puts it back).
 */
const statement = join(fixtureDir, 'press-statement.wav');

/** A story of the statement's first three sentences, and a line of the journalist's own between them. */
async function storyOfThreeQuotes(page: Page, shell: AppShell): Promise<{ stories: StoriesPage }> {
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(statement, {});
  const stories = new StoriesPage(page);
  await stories.createStoryQuoting('Ferry piece', [
    { transcriptId: id, containing: 'afternoon' },
    { transcriptId: id, containing: 'agreement' },
    { transcriptId: id, containing: 'thousands' },
  ]);
  const [story] = await callBridge<StorySummary[]>(page, 'stories.list');
  await callBridge(page, 'stories.addText', {
    storyId: story!.id,
    text: 'The council voted on Tuesday.',
    index: 1,
  });
  await shell.goTo('stories');
  await stories.open('Ferry piece');
  await expect(stories.items).toHaveCount(4);
  return { stories };
}

test('the story reads as a column of about 70 characters, nothing scrolls sideways, and axe is clean', async ({
  shell,
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await shell.open();
  const { stories } = await storyOfThreeQuotes(page, shell);

  const measure = await stories.items
    .nth(0)
    .locator('blockquote')
    .evaluate((quote) => {
      const style = getComputedStyle(quote);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const sample = 'The service will improve travel for thousands of residents, the mayor said. ';
      const perCharacter = context.measureText(sample).width / sample.length;
      return quote.clientWidth / perCharacter;
    });
  expect(measure).toBeGreaterThan(50);
  expect(measure).toBeLessThanOrEqual(75);

  const sideways = await page.getByTestId('story-page').evaluate((region) => ({
    region: region.scrollWidth - region.clientWidth,
    page: document.documentElement.scrollWidth - window.innerWidth,
  }));
  expect(sideways).toEqual({ region: 0, page: 0 });

  await stories.items.nth(0).hover();
  const report = await new AxeBuilder({ page }).include('main').analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
});

test('a quote card’s play, open, trim and remove icons each do their thing', async ({ shell, page }) => {
  await shell.open();
  const { stories } = await storyOfThreeQuotes(page, shell);
  const third = stories.items.nth(3);

  // Play: the quote is marked as it plays, and its icon becomes Stop.
  await third.getByRole('button', { name: /^Play the quote “The service/ }).click();
  await expect(third).toHaveClass(/\bplaying\b/);
  await third.getByRole('button', { name: /^Stop the quote “The service/ }).click();
  await expect(third).not.toHaveClass(/\bplaying\b/);

  // Trim: to its last word.
  await third.getByRole('button', { name: /^Trim… the quote “The service/ }).click();
  const trim = page.getByRole('dialog', { name: 'Trim the quote' });
  const words = await trim.getByLabel('From the word').locator('option').allInnerTexts();
  await trim.getByLabel('From the word').selectOption({ label: words.at(-1)! });
  await trim.getByRole('button', { name: 'Trim' }).click();
  await trim.waitFor({ state: 'detached' });
  await expect(third.locator('blockquote')).toHaveText(/^“residents\.?”$/);

  // Remove: the first quote leaves the story.
  await stories.items
    .nth(0)
    .getByRole('button', { name: /^Remove the quote “Good afternoon/ })
    .click();
  await expect(stories.items).toHaveCount(3);
  await expect(stories.items.nth(0)).toContainText('The council voted on Tuesday.');

  // Open: the reader shows the quote's transcript.
  await stories.items
    .nth(1)
    .getByRole('button', { name: /^Open the quote “Today the city/ })
    .click();
  const reader = new ReaderPage(page);
  await expect(reader.heading).toHaveText('press-statement');
});

test('the journalist’s text is edited in place: saved on leaving, Escape puts it back', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  const { stories } = await storyOfThreeQuotes(page, shell);
  const paragraph = page.getByRole('button', { name: 'Edit the text “The council voted on Tuesday.”' });
  const editor = page.getByRole('textbox', { name: 'Edit the text' });

  // A click opens it; a click on the title leaves it, which saves it.
  await paragraph.click();
  await expect(editor).toBeFocused();
  await editor.fill('The council voted on Tuesday, seven to two.');
  await page.getByRole('heading', { level: 2, name: 'Ferry piece' }).click();
  await expect(editor).toBeHidden();
  await expect(stories.items.nth(1)).toHaveText('The council voted on Tuesday, seven to two.');

  // Enter opens it from the keyboard; Escape puts it back as it was, the keyboard on it again.
  const edited = page.getByRole('button', { name: /^Edit the text “The council voted on Tuesday, seven/ });
  await edited.focus();
  await page.keyboard.press('Enter');
  await expect(editor).toBeFocused();
  await page.keyboard.type(' Or was it Wednesday?');
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(edited).toBeFocused();
  await expect(stories.items.nth(1)).toHaveText('The council voted on Tuesday, seven to two.');
  expect(calls.filter((call) => call.method === 'stories.editText').map((call) => call.input)).toEqual([
    expect.objectContaining({ text: 'The council voted on Tuesday, seven to two.' }),
  ]);

  await page.reload();
  await stories.open('Ferry piece');
  await expect(stories.items.nth(1)).toHaveText('The council voted on Tuesday, seven to two.');
});

test('an item moves by its grip with the keyboard, the keyboard staying on the grip', async ({
  shell,
  page,
}) => {
  await shell.open();
  const { stories } = await storyOfThreeQuotes(page, shell);
  const before = await stories.itemTexts();

  await stories.handle(3).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => stories.itemTexts()).toEqual([before[0], before[1], before[3], before[2]]);
  await expect(stories.handle(2)).toBeFocused();
  await page.keyboard.press('Alt+ArrowUp');
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => stories.itemTexts()).toEqual([before[3], before[0], before[1], before[2]]);
  await expect(stories.handle(0)).toBeFocused();
});
