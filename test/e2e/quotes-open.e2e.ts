import { join } from 'node:path';
import type { Highlight } from '../../src/shared/highlights';
import { callBridge } from './pages/bridge';
import { QuotesPage } from './pages/highlights-page';
import { ReaderPage } from './pages/reader-page';
import { test, expect, fixtureDir } from './fixtures';

/**
 * Opening the Quotes view asks for its first page and, as nothing is shown yet, for the next
 * one at once; each quote must still be listed once (issue #32: with one highlight, every open
 * showed Svelte's each_key_duplicate page error and "Something unexpected went wrong"). The
 * fixtures fail the test on any console error or page error.
 */
test('the Quotes view opens on one highlight, listed once, again and again', async ({ shell, page }) => {
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(join(fixtureDir, 'press-statement.wav'), {});
  const [sentence] = (
    await callBridge<{ sentences: { startMs: number; endMs: number }[] }>(page, 'transcripts.get', { id })
  ).sentences;
  const highlight = await callBridge<Highlight>(page, 'highlights.create', {
    transcriptId: id,
    startMs: sentence!.startMs,
    endMs: sentence!.endMs,
  });
  const quotes = new QuotesPage(page);
  for (let visit = 0; visit < 3; visit++) {
    await shell.goTo('quotes');
    await expect(quotes.quotes).toHaveCount(1);
    await expect(quotes.quotes).toContainText(highlight.text);
    await expect(page.getByText('Something unexpected went wrong')).toHaveCount(0);
    await shell.goTo('library');
  }
});

test('the Quotes view: a large search first, filters as one bar of chips, actions on hover and focus', async ({
  shell,
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(join(fixtureDir, 'press-statement.wav'), {});
  const { sentences } = await callBridge<{ sentences: { startMs: number; endMs: number }[] }>(
    page,
    'transcripts.get',
    { id },
  );
  for (const sentence of sentences.slice(0, 3)) {
    await callBridge<Highlight>(page, 'highlights.create', {
      transcriptId: id,
      startMs: sentence.startMs,
      endMs: sentence.endMs,
    });
  }
  await shell.goTo('quotes');
  const quotes = new QuotesPage(page);
  await expect(quotes.quotes).toHaveCount(3);

  const search = (await quotes.search.boundingBox())!;
  const filters = (await page.getByRole('group', { name: 'Filters' }).boundingBox())!;
  const list = (await page.getByRole('list', { name: 'Quotes' }).boundingBox())!;
  expect(search.y + search.height).toBeLessThanOrEqual(filters.y);
  expect(filters.y + filters.height).toBeLessThanOrEqual(list.y);
  expect(search.height).toBeGreaterThanOrEqual(36);
  expect(filters.height).toBeLessThanOrEqual(40);

  // No row of buttons under each quote: its icons show on hover and on focus.
  const first = quotes.quotes.first();
  const play = first.getByRole('button', { name: /^Play / });
  await page.getByRole('heading', { name: 'Quotes', level: 1 }).hover();
  await expect(play).toHaveCSS('opacity', '0');
  await first.hover();
  await expect(play).toHaveCSS('opacity', '1');
  await page.getByRole('heading', { name: 'Quotes', level: 1 }).hover();
  await play.focus();
  await expect(play).toHaveCSS('opacity', '1');

  // An active filter is a chip with its own remove button.
  await quotes.filter('Transcript', 'press-statement');
  const chip = page
    .getByRole('group', { name: 'Filters' })
    .getByRole('button', { name: /^Remove filter Transcript: / });
  await expect(chip).toHaveAccessibleName('Remove filter Transcript: press-statement');
  await chip.click();
  await expect(chip).toHaveCount(0);
  await expect(quotes.quotes).toHaveCount(3);
});
