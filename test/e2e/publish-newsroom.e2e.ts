import { copyFileSync, mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import { CorrectionsPage } from './pages/corrections-page';
import { LibraryPage } from './pages/library-page';
import { PublishPage } from './pages/publish-page';
import { callBridge } from './pages/bridge';
import type { TranscriptSummary } from '../../src/shared/library';
import { startE2eNewsroom, type E2eNewsroom } from './newsroom-postgres.test-kit';
import { freePort } from '../../scripts/newsroom/local-postgres';

/**
 * Publishing from the reader (issue #35, points 4 and 5) in Chromium through the web host, to a
 * real PostgreSQL: the keyboard only, each correction a new revision, offline first.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');
const anaPassword = 'ana-pw-publish-82c1';
let newsroom: E2eNewsroom;

test.beforeAll(async () => {
  newsroom = await startE2eNewsroom([{ user: 'ana', password: anaPassword, desk: 'City' }]);
});

test.afterAll(async () => {
  await newsroom.stop();
});

/** The revision the archive holds of the transcript, and whether a word is in its sentences. */
async function archived(id: string, word: string): Promise<{ revision: number; hasWord: boolean } | null> {
  return newsroom.asAdmin(async (client) => {
    const found = await client.query<{ revision: number; has_word: boolean }>(
      `SELECT t.revision, EXISTS (SELECT 1 FROM verbatim.published_sentences s
         WHERE s.reporter = t.reporter AND s.transcript_id = t.transcript_id AND s.text LIKE '%' || $2 || '%') AS has_word
       FROM verbatim.published_transcripts t WHERE t.reporter = 'ana' AND t.transcript_id = $1`,
      [id, word],
    );
    const row = found.rows[0];
    return row ? { revision: row.revision, hasWord: row.has_word } : null;
  });
}

test('the reporter publishes from the reader with the keyboard, publishes a correction as rev 2, and offline it waits, then goes', async ({
  shell,
  page,
}) => {
  await shell.open();
  const publishing = new PublishPage(page);
  await publishing.setNewsroom(newsroom.addressOf('ana'), anaPassword);
  const corrections = new CorrectionsPage(page);
  const id = await corrections.reader.openNewTranscript(interview, { speaker_labels: true });
  await expect(publishing.state).toHaveCount(0);

  await corrections.reader.transcript.focus();
  await page.keyboard.press('Control+Shift+P');
  await expect(publishing.dialog).toBeVisible();
  await expect(publishing.desk).toHaveValue('City');
  await expect(publishing.confidential).not.toBeChecked();
  await publishing.publishWithKeyboard();
  await expect(publishing.dialog).toHaveCount(0);
  await expect(publishing.state).toHaveText('Published · rev 1');
  expect(await archived(id, 'Gull')).toEqual({ revision: 1, hasWord: true });

  // A correction, published again: the archive holds the corrected words as the next revision.
  await corrections.selectWordInEditor('Gull');
  await page.keyboard.type('Gall');
  await page.keyboard.press('Enter');
  await expect(corrections.editor).toHaveCount(0);
  await page.keyboard.press('Control+Shift+P');
  await expect(publishing.desk).toHaveValue('City');
  await publishing.publishWithKeyboard();
  await expect(publishing.state).toHaveText('Published · rev 2');
  expect(await archived(id, 'Gall')).toEqual({ revision: 2, hasWord: true });

  // Nothing answers at the address: the desk used last is offered, and the publish waits.
  await publishing.setNewsroom(`postgres://ana@127.0.0.1:${await freePort()}/verbatim`, anaPassword);
  await page.keyboard.press('Control+Shift+P');
  await expect(publishing.desksMessage).toContainText('The newsroom cannot be reached now');
  await expect(publishing.desk).toHaveValue('City');
  await publishing.publishWithKeyboard();
  await expect(publishing.state).toHaveText('Waiting to publish');
  expect(await archived(id, 'Gall')).toEqual({ revision: 2, hasWord: true });

  // The newsroom back in Settings: what waited is sent at once.
  await publishing.setNewsroom(newsroom.addressOf('ana'), anaPassword);
  await expect(publishing.state).toHaveText('Published · rev 3');
  expect(await archived(id, 'Gall')).toEqual({ revision: 3, hasWord: true });

  // The library shows the same state on the transcript's row.
  await shell.goTo('library');
  const library = new LibraryPage(page);
  await expect(publishing.badge(library.rows.and(page.locator(`[data-id="${id}"]`)))).toHaveText(
    'Published · rev 3',
  );
});

test('a recording moved away is published without it, and the reader and the row say so quietly', async ({
  shell,
  page,
}) => {
  await shell.open();
  const publishing = new PublishPage(page);
  await publishing.setNewsroom(newsroom.addressOf('ana'), anaPassword);
  // A copy to move: the library links the file it was given, and the fixture stays where it is.
  const recording = join(mkdtempSync(join(tmpdir(), 'verbatim-e2e-moved-')), basename(interview));
  copyFileSync(interview, recording);
  const corrections = new CorrectionsPage(page);
  const id = await corrections.reader.openNewTranscript(recording, { speaker_labels: true });
  const {
    summary: { title, audioPath },
  } = await callBridge<{ summary: TranscriptSummary }>(page, 'transcripts.get', { id });
  expect(audioPath).toBe(recording);
  renameSync(recording, `${recording}.moved`);

  await corrections.reader.transcript.focus();
  await page.keyboard.press('Control+Shift+P');
  await publishing.withRecording.check();
  await publishing.publishWithKeyboard();
  await expect(publishing.state).toHaveText('Published · rev 1');
  const note = `"${title}" was published without its recording: it is no longer at ${audioPath!} (moved, renamed or on a drive that is not connected); relink it and publish again with its audio.`;
  await expect(publishing.audioNote).toHaveText(note);
  expect(await archived(id, 'Gull')).toEqual({ revision: 1, hasWord: true });

  await shell.goTo('library');
  const badge = publishing.badge(new LibraryPage(page).rows.and(page.locator(`[data-id="${id}"]`)));
  await expect(badge).toHaveText('Published · rev 1');
  await expect(badge).toHaveAttribute('title', `Published · rev 1. ${note}`);
});
