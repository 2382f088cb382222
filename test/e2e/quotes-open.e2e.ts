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
