import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import { NewsroomSection } from './pages/newsroom-section';
import { NewsroomSearchPage } from './pages/newsroom-search-page';
import { QuotesPage, ReaderHighlights, StoriesPage } from './pages/highlights-page';
import { FindReplaceBar, ReviewPanel } from './pages/review-page';
import { newsroomCopyReadOnly } from '../../src/shared/library';
import { startSampleE2eNewsroom, type SampleE2eNewsroom } from './newsroom-postgres.test-kit';
import { NewsroomArchive } from '../../src/main/core/newsroom/newsroom-archive';
import { passwordOf, samplePublication } from '../../src/main/core/newsroom/newsroom-archive.test-kit';

/**
 * "Keep in my library" (issue #35, point 6) in Chromium: ben finds ana's published interview,
 * keeps it with its recording, and works on the read-only copy as on his own transcripts: play,
 * a highlight made by keyboard, a story whose citation names ana, and ana's review stamps, which
 * say in the Quotes view and the story that the quote was checked against the audio by her.
 */
let newsroom: SampleE2eNewsroom;
const recording = new Uint8Array(readFileSync(join(fixtureDir, 'press-statement.wav')));

test.beforeAll(async () => {
  newsroom = await startSampleE2eNewsroom();
  const ana = newsroom.connectAs('ana');
  try {
    const archive = new NewsroomArchive(ana);
    await archive.apply({
      kind: 'publish',
      publication: samplePublication('pier', 1, {
        title: 'The pier at night',
        // ana's two paragraphs, the first checked against the audio (issue #36, point 3).
        paragraphs: [
          { startMs: 0, endMs: 2500 },
          { startMs: 3000, endMs: 5500 },
        ],
        checkedParagraphs: [{ paragraph: 0, checkedAt: Date.UTC(2025, 3, 15, 12) }],
        audio: {
          byteLength: recording.byteLength,
          sha256: createHash('sha256').update(recording).digest('hex'),
          mimeType: 'audio/wav',
        },
      }),
    });
    const chunk = 256 * 1024;
    for (let index = 0; index * chunk < recording.byteLength; index++)
      await archive.putAudioChunk({
        transcriptId: 'pier',
        revision: 1,
        clip: 'recording',
        chunkIndex: index,
        bytes: recording.subarray(index * chunk, (index + 1) * chunk),
      });
  } finally {
    await ana.close();
  }
});

test.afterAll(async () => {
  await newsroom.stop();
});

test('keeps a colleague’s transcript, plays it, highlights it by keyboard and cites its reporter in a story', async ({
  shell,
  page,
}) => {
  test.setTimeout(120_000);
  await shell.open();
  await shell.goTo('settings');
  const section = new NewsroomSection(page);
  await section.open();
  await section.saveAs(newsroom.addressOf('ben'), passwordOf('ben'));
  await shell.goTo('library');

  const search = new NewsroomSearchPage(page);
  await search.newsroom.click();
  await search.box.fill('harbour');
  await search.hit('The pier at night').first().locator('a').click();
  await expect(search.banner).toBeVisible();
  await search.reader.getByRole('button', { name: 'Keep in my library' }).click();

  // The copy opens in the reader, read only, naming who recorded it.
  const highlights = new ReaderHighlights(page);
  const reader = highlights.reader;
  await expect(page.getByTestId('newsroom-origin')).toContainText(
    'Recorded by ana · City · newsroom revision 1',
  );
  await expect(reader.heading).toHaveText('The pier at night');
  await expect(reader.transcript.locator('p.words[tabindex="0"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit title' })).toBeDisabled();
  await reader.more.click();
  await expect(reader.moreMenu.getByRole('menuitem', { name: 'Publish to newsroom…' })).toBeDisabled();
  await page.keyboard.press('Escape');

  // Find stays; replacing is not offered, by button or by Ctrl+H, and says why.
  await page.keyboard.press('Control+h');
  const find = new FindReplaceBar(page);
  await expect(find.findBox).toBeFocused();
  await find.findBox.fill('harbour');
  await expect(find.count).toHaveText(/^1 of \d+ match/);
  const replaceToggle = page.getByRole('search', { name: 'Find in transcript' }).getByRole('button', {
    name: 'Replace…',
  });
  await expect(replaceToggle).toBeDisabled();
  await expect(replaceToggle).toHaveAttribute('title', newsroomCopyReadOnly);
  await expect(find.replaceBox).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(find.findBox).toHaveCount(0);

  // The speaker button stays to say why; nothing offers a spelling for the glossary.
  const correctSpeaker = reader.transcript.getByRole('button', { name: /^Correct the speaker/ }).first();
  await expect(correctSpeaker).toBeDisabled();
  await expect(correctSpeaker).toHaveAttribute('title', newsroomCopyReadOnly);
  await expect(page.getByRole('list', { name: 'Spellings to keep' })).toHaveCount(0);

  // Its review was its reporter's: no stamping, by button, checkbox or F9.
  const review = new ReviewPanel(page);
  await review.tab.click();
  await expect(review.markPlaying).toBeDisabled();
  await expect(review.markPlaying).toHaveAttribute('title', newsroomCopyReadOnly);
  await expect(review.checkbox(0)).toBeDisabled();
  await expect(review.checkbox(0)).toHaveAttribute('title', newsroomCopyReadOnly);
  // Her stamps came with it, read only, saying who checked.
  await expect(review.checkbox(0)).toBeChecked();
  await expect(review.row(0)).toContainText(/Checked by ana/);
  await expect(review.checkbox(1)).not.toBeChecked();
  await expect(review.progress).toHaveText('1 of 2 paragraphs checked (50%)');
  const progressBefore = await review.progress.textContent();
  await page.keyboard.press('F9');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(review.progress).toHaveText(progressBefore ?? '');

  // Play moves the playhead: its recording was downloaded with it.
  await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);
  await reader.transportButton('Play').click();
  await expect.poll(() => reader.currentTime()).toBeGreaterThan(0.3);
  await reader.transportButton('Pause').click();

  // A highlight of its first sentence, by keyboard from the caret.
  await highlights.selectFrom('revision', 6);
  await highlights.highlight('Quote', 'Lead quote');
  await expect.poll(() => highlights.markedWords()).toEqual(['revision', '1', 'of', 'the', 'harbour', '0']);

  // Into a story, from Quotes: the story's citation names the reporter who recorded it.
  await shell.goTo('quotes');
  const quotes = new QuotesPage(page);
  await expect(quotes.quote('revision 1 of the harbour 0').getByTestId('quote-recorded-by')).toHaveText(
    'recorded by ana, City desk',
  );
  // Its words are in ana's checked paragraph: checked once, it counts for ben too.
  await expect(quotes.quote('revision 1 of the harbour 0').getByTestId('quote-checked')).toHaveText(
    'Checked against the audio by ana on Apr 15, 2025',
  );
  await quotes.addToStory('revision 1 of the harbour 0', 'Pier piece', true);
  await shell.goTo('stories');
  const stories = new StoriesPage(page);
  await stories.open('Pier piece');
  await expect(stories.items.first().getByTestId('story-citation')).toContainText(
    'recorded by ana, City desk, checked against the audio by ana on Apr 15, 2025',
  );

  // The library shows the copy with where it came from.
  await shell.goTo('library');
  await search.myLibrary.click();
  await expect(page.getByTestId('newsroom-copy-badge')).toHaveText('From the newsroom · ana');
});
