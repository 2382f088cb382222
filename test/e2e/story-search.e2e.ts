import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { BridgeApi } from '../../src/shared/ipc/api';
import { test, expect, fixtureDir } from './fixtures';
import { ReaderPage } from './pages/reader-page';

/** Stories are searchable (issue #20): by a quoted word, by the journalist's own text, accents aside. */
const statement = join(fixtureDir, 'press-statement.wav');

test('finds a story by a word it quotes and by a word of its own text', async ({ shell, page }) => {
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(statement, {});
  await page.evaluate(async (id) => {
    const { api } = window as unknown as { api: BridgeApi };
    const unwrap = <T>(envelope: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
      if (!envelope.ok) throw new Error(envelope.error.message);
      return envelope.value;
    };
    const boats = unwrap(await api.stories.create({ name: 'Boats piece' }));
    const sentences = unwrap(await api.transcripts.get({ id })).sentences;
    const last = sentences.find((sentence) => sentence.text.includes('spring'))!;
    const highlight = unwrap(
      await api.highlights.create({ transcriptId: id, startMs: last.startMs, endMs: last.endMs }),
    );
    unwrap(await api.stories.addQuote({ storyId: boats.id, highlightId: highlight.id }));
    const council = unwrap(await api.stories.create({ name: 'Council notes' }));
    unwrap(await api.stories.addText({ storyId: council.id, text: 'Call the harbour master, Señor Ortíz' }));
  }, id);

  await shell.goTo('stories');
  const list = page.getByRole('navigation', { name: 'Stories' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  const search = page.getByRole('searchbox', { name: 'Find a story' });
  await search.fill('spri');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('Boats piece');
  await expect(list.getByTestId('story-match')).toContainText('spring');
  await search.fill('senor ortiz');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('Council notes');
  await search.fill('submarine');
  await expect(list.getByRole('listitem')).toHaveCount(0);
  await expect(list.getByRole('status')).toHaveText('No story mentions “submarine”.');
  const report = await new AxeBuilder({ page }).include('main').analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await search.fill('');
  await expect(list.getByRole('listitem')).toHaveCount(2);

  // Renamed in place, then found by its new name.
  await list.getByRole('button', { name: /Council notes/ }).click();
  await page.getByRole('button', { name: 'Rename…' }).click();
  await expect(page.getByLabel('Story name')).toBeFocused();
  await page.getByLabel('Story name').fill('Harbour master');
  await page.getByLabel('Story name').press('Enter');
  await expect(page.getByRole('heading', { name: 'Harbour master', level: 2 })).toBeVisible();
  await search.fill('harbour master');
  await expect(list.getByRole('listitem')).toHaveCount(1);
});
