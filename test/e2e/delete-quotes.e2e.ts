import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { BridgeApi } from '../../src/shared/ipc/api';
import { test, expect, fixtureDir } from './fixtures';
import { StoriesPage } from './pages/highlights-page';
import { LibraryPage } from './pages/library-page';
import { ReaderPage } from './pages/reader-page';

/**
 * Deleting a transcript asks what becomes of its quotes in stories (issue #20): from the reader
 * the journalist keeps them as text, from the library's selection removes them; the story
 * shows exactly that afterwards.
 */
const statement = join(fixtureDir, 'press-statement.wav');

test('deleting a quoted transcript keeps its quotes in the story as text, or removes them, as chosen', async ({
  shell,
  page,
}) => {
  test.setTimeout(120_000);
  await shell.open();
  const reader = new ReaderPage(page);
  const kept = await reader.openNewTranscript(statement, {});
  const removed = await reader.openNewTranscript(statement, {});
  // One quote of each in a story, through the bridge as another window would.
  await page.evaluate(
    async (ids) => {
      const { api } = window as unknown as { api: BridgeApi };
      const unwrap = <T>(envelope: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
        if (!envelope.ok) throw new Error(envelope.error.message);
        return envelope.value;
      };
      const story = unwrap(await api.stories.create({ name: 'Boats piece' }));
      for (const id of ids) {
        const [first] = unwrap(await api.transcripts.get({ id })).sentences;
        const highlight = unwrap(
          await api.highlights.create({ transcriptId: id, startMs: first!.startMs, endMs: first!.endMs }),
        );
        unwrap(await api.stories.addQuote({ storyId: story.id, highlightId: highlight.id }));
      }
    },
    [kept, removed],
  );

  // From the reader: the dialog names the story; keeping is the default.
  await reader.open(kept);
  await reader.chooseMore('Delete…');
  const dialog = page.getByRole('dialog', { name: 'Delete this transcript?' });
  const choice = dialog.getByTestId('quotes-in-stories');
  await expect(choice).toContainText('1 quote from it is in the story “Boats piece”');
  await expect(choice.getByLabel('Keep it in the story as text')).toBeChecked();
  const report = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Library', exact: true })).toBeVisible();

  await shell.goTo('stories');
  const stories = new StoriesPage(page);
  await stories.open('Boats piece');
  await expect(stories.items).toHaveCount(2);
  await expect(stories.items.nth(0)).toContainText(
    'The transcript of this quote was deleted; its words are kept as they were.',
  );

  // From the library's selection: removing takes the other quote out of the story.
  await shell.goTo('library');
  const library = new LibraryPage(page);
  await expect(library.rows).toHaveCount(1);
  await library.rowById(removed).getByRole('checkbox').click();
  await library.bulk.getByRole('button', { name: 'Delete…' }).click();
  await library.deleteDialog.getByLabel('Remove it from the story').check();
  await library.deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(library.rows).toHaveCount(0);

  await shell.goTo('stories');
  await stories.open('Boats piece');
  await expect(stories.items).toHaveCount(1);
  await expect(stories.items.nth(0)).toContainText(
    'The transcript of this quote was deleted; its words are kept as they were.',
  );
});
