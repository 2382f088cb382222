import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { BridgeApi } from '../../src/shared/ipc/api';
import { formatDay } from '../../src/shared/display-format';
import { test, expect, fixtureDir } from './fixtures';
import { QuotesPage, StoriesPage } from './pages/highlights-page';
import { ReaderPage } from './pages/reader-page';

/**
 * A highlight already in a story (put there by `story add` on the command line, which writes
 * the same library) added again with "Add to story…" (issue #31): the dialog says which story
 * has it and where, and the reporter cancels or adds it again. The quotes read in the marks of
 * their transcript's language (French here) and cite the recording's day, as the exports do.
 */
const statement = join(fixtureDir, 'press-statement.wav');

test('Add to story… says the story already has the quote and where, then cancels or adds it again', async ({
  shell,
  page,
}) => {
  test.setTimeout(120_000);
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(statement, { language_code: 'fr' });
  // The highlight and the story, through the bridge, as the command line's `story add` leaves them.
  const { words, recordedAt } = await page.evaluate(async (id) => {
    const { api } = window as unknown as { api: BridgeApi };
    const unwrap = <T>(envelope: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
      if (!envelope.ok) throw new Error(envelope.error.message);
      return envelope.value;
    };
    const detail = unwrap(await api.transcripts.get({ id }));
    const [first] = detail.sentences;
    const highlight = unwrap(
      await api.highlights.create({ transcriptId: id, startMs: first!.startMs, endMs: first!.endMs }),
    );
    const story = unwrap(await api.stories.create({ name: 'Ferry piece' }));
    unwrap(await api.stories.addQuote({ storyId: story.id, highlightId: highlight.id }));
    return { words: highlight.text, recordedAt: detail.summary.createdAt };
  }, id);
  const day = formatDay(recordedAt);

  // The Quotes view: the quote in French marks, the recording's day without a time of day.
  await shell.goTo('quotes');
  const quotes = new QuotesPage(page);
  const card = quotes.quote(words);
  await expect(card.locator('blockquote')).toHaveText(`«\u00a0${words}\u00a0»`);
  await expect(card.locator('time')).toHaveText(day);

  const dialog = page.getByRole('dialog', { name: 'Add to story' });
  const addToStory = async (): Promise<void> => {
    await card.getByRole('button', { name: /^Add to story… / }).click();
    await dialog.getByLabel('Story', { exact: true }).selectOption({ label: 'Ferry piece' });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  };

  // Once: the dialog says where the quote already is, and Cancel leaves the story as it was.
  await addToStory();
  const already = dialog.getByRole('alert');
  await expect(already).toHaveText(
    '“Ferry piece” already has this quote, as item 1 of 1. Add it again, or cancel and keep the story as it is.',
  );
  await expect(dialog.getByRole('button', { name: 'Add again' })).toBeFocused();
  const report = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await shell.goTo('stories');
  const stories = new StoriesPage(page);
  await stories.open('Ferry piece');
  await expect(stories.items).toHaveCount(1);

  // Twice: Add again quotes it a second time, as the reporter chose.
  await shell.goTo('quotes');
  await addToStory();
  await expect(already).toBeVisible();
  await dialog.getByRole('button', { name: 'Add again' }).click();
  await expect(dialog).toBeHidden();

  await shell.goTo('stories');
  await stories.open('Ferry piece');
  await expect(stories.items).toHaveCount(2);
  // Each reads as the story's exports print it: French marks, the citation with the day.
  for (const item of await stories.items.all()) {
    await expect(item.locator('blockquote')).toHaveText(`«\u00a0${words}\u00a0»`);
    const citation = item.getByTestId('story-citation');
    await expect(citation).toContainText(`, “press-statement”, ${day}, 00:00:`);
    await expect(citation).not.toContainText(/\d:\d\d\s?[AP]M/);
  }
});
