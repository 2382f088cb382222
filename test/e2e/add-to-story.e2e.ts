import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import { AskPanel } from './pages/ask-panel';
import { StoriesPage } from './pages/highlights-page';
import { LibraryPage } from './pages/library-page';
import { ReaderPage } from './pages/reader-page';

/**
 * A story is made from more than the reader and the Quotes view (issue #20): a library search
 * hit and a key quote Ask extracted each go into a story with one "Add to story…", with their
 * own words and source.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

test('adds a library search hit and an Ask key quote to a story', async ({ shell, page }) => {
  test.setTimeout(120_000);
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(interview, { speaker_labels: true });

  // A search hit, into a new story.
  await shell.goTo('library');
  const library = new LibraryPage(page);
  await library.search('Gull Island');
  const hit = page.locator('#search-hits li').first();
  await expect(hit).toContainText('Gull Island');
  await hit.getByRole('button', { name: /^Add to story… the sentence at / }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to story' });
  await expect(dialog).toContainText('Gull Island');
  const report = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await dialog.getByLabel('Story', { exact: true }).selectOption({ label: 'A new story…' });
  await dialog.getByLabel('New story’s name').fill('Ferry piece');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();

  // A key quote from Ask, into the same story: its own words, matched in the transcript.
  await reader.open(id);
  const ask = new AskPanel(page);
  await ask.open();
  await ask.readyMade('Key quotes').click();
  await expect(ask.quotes.first()).toBeVisible();
  const quoted = (await ask.quotes.first().locator('.text').textContent())!.replace(/^“|”$/g, '');
  await ask.quotes
    .first()
    .getByRole('button', { name: /^Add to story… the quote from / })
    .click();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Story', { exact: true }).selectOption({ label: 'Ferry piece' });
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();

  await shell.goTo('stories');
  const stories = new StoriesPage(page);
  await stories.open('Ferry piece');
  await expect(stories.items).toHaveCount(2);
  await expect(stories.items.nth(0)).toContainText('Gull Island');
  const firstWords = quoted
    .split(/\s+/)
    .slice(0, 3)
    .join(' ')
    .replace(/[.,!?]$/, '');
  await expect(stories.items.nth(1)).toContainText(firstWords);
});
