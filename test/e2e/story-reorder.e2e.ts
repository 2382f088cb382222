import { join } from 'node:path';
import type { BridgeApi } from '../../src/shared/ipc/api';
import { test, expect, fixtureDir } from './fixtures';
import { StoriesPage } from './pages/highlights-page';
import { ReaderPage } from './pages/reader-page';

/**
 * Reordering a story with the mouse (issue #20: "reorder by drag and drop and by keyboard";
 * the keyboard is covered in highlights.e2e.ts): Chromium's own drag and drop, from the item's
 * grip onto another item (issue #33), kept over a reload.
 */
const statement = join(fixtureDir, 'press-statement.wav');

test('drags a story item by its grip onto another to move it there, and the order stays after a reload', async ({
  shell,
  page,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(statement, {});
  // A story of three quotes, the first three sentences, made through the bridge as another window would.
  await page.evaluate(async (id) => {
    const { api } = window as unknown as { api: BridgeApi };
    const unwrap = <T>(envelope: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
      if (!envelope.ok) throw new Error(envelope.error.message);
      return envelope.value;
    };
    const detail = unwrap(await api.transcripts.get({ id }));
    const story = unwrap(await api.stories.create({ name: 'Paper edit' }));
    for (const sentence of detail.sentences.slice(0, 3)) {
      const highlight = unwrap(
        await api.highlights.create({ transcriptId: id, startMs: sentence.startMs, endMs: sentence.endMs }),
      );
      unwrap(await api.stories.addQuote({ storyId: story.id, highlightId: highlight.id }));
    }
  }, id);

  await shell.goTo('stories');
  const stories = new StoriesPage(page);
  await stories.open('Paper edit');
  await expect(stories.items).toHaveCount(3);
  const before = await stories.itemTexts();

  // The third onto the first: it takes the first place.
  await stories.handle(2).dragTo(stories.items.nth(0));
  await expect.poll(() => stories.itemTexts()).toEqual([before[2], before[0], before[1]]);
  // The (new) first onto the last: it takes the last place.
  await stories.handle(0).dragTo(stories.items.nth(2));
  await expect.poll(() => stories.itemTexts()).toEqual([before[0], before[1], before[2]]);
  await stories.handle(0).dragTo(stories.items.nth(1));
  const moved = [before[1], before[0], before[2]];
  await expect.poll(() => stories.itemTexts()).toEqual(moved);

  await page.reload();
  await stories.open('Paper edit');
  await expect.poll(() => stories.itemTexts()).toEqual(moved);
});
