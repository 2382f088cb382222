import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSync, type NodeCue } from 'subtitle';
import type { Page } from '@playwright/test';
import { test, expect, fixtureDir } from './fixtures';
import { ExportDialog } from './pages/export-page';
import { LibraryPage } from './pages/library-page';
import { NewTranscriptionPage } from './pages/new-transcription-page';
import { ReaderPage } from './pages/reader-page';
import { VideoPane } from './pages/video-pane';
import type { AppShell } from './pages/app-shell';
import type { BridgeApi } from '../../src/shared/ipc/api';

/** A 14 s WebM (VP8 picture, Opus sound) of the press statement, made by test/fixtures/make-video-fixture.ts. */
const video = join(fixtureDir, 'press-statement.webm');

let out: string;
test.beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'verbatim-e2e-video-'));
});
test.afterEach(() => rmSync(out, { recursive: true, force: true }));

/** Every word of the stored transcript with its times, in order. */
function storedWords(page: Page, id: string): Promise<{ text: string; start: number; end: number }[]> {
  return page.evaluate(async (id) => {
    const envelope = await (window as unknown as { api: BridgeApi }).api.transcripts.get({ id });
    if (!envelope.ok) throw new Error(envelope.error.message);
    return envelope.value.sentences.flatMap((sentence) => sentence.words);
  }, id);
}

/** Transcribes the video through New transcription as a user does, and answers its id once completed. */
async function importVideo(shell: AppShell, page: Page): Promise<string> {
  await shell.open();
  await shell.goTo('new');
  const form = new NewTranscriptionPage(page);
  await form.fileInput.setInputFiles([video]);
  await expect(form.files).toContainText('press-statement.webm');
  await form.submit.click();
  await expect(shell.heading).toHaveText('Library');
  const library = new LibraryPage(page);
  await expect
    .poll(async () => (await library.list()).map((job) => job.status), { timeout: 20_000 })
    .toEqual(['completed']);
  const [job] = await library.list();
  return job!.id;
}

test('a video recording is imported, shows its picture in sync with the words, and exports subtitles', async ({
  shell,
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const id = await importVideo(shell, page);
  const library = new LibraryPage(page);
  await library.rowById(id).getByRole('link').first().click();
  const reader = new ReaderPage(page);
  await reader.turns.first().waitFor();
  await expect(reader.transcript).toContainText('Good afternoon.');

  // The picture is there, at its own size, before playing.
  const pane = new VideoPane(page);
  await expect(pane.video).toBeVisible();
  await expect.poll(async () => (await pane.state()).videoWidth).toBe(160);
  expect((await pane.state()).videoHeight).toBe(90);
  const before = await pane.picture();

  // The transport's Play plays the video; the picture moves and the spoken word follows it.
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(async () => (await pane.state()).currentTime, { timeout: 10_000 }).toBeGreaterThan(2);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect.poll(async () => (await pane.state()).paused).toBe(true);
  expect(await pane.picture()).not.toEqual(before);
  const words = await storedWords(page, id);
  const atMs = (await pane.state()).currentTime * 1000;
  const spoken = words.findLastIndex((word) => word.start <= atMs);
  await expect.poll(() => reader.highlightedWord()).toBe(spoken);

  // Clicking a word plays the video from that word.
  const word = reader.word('spring').first();
  const index = Number(await word.getAttribute('data-w'));
  const startMs = words[index]!.start;
  expect(startMs).toBeGreaterThan(9_000);
  await word.click();
  await expect.poll(() => reader.paused()).toBe(false);
  const from = (await pane.state()).currentTime;
  expect(from).toBeGreaterThanOrEqual(startMs / 1000 - 0.05);
  expect(from).toBeLessThan(startMs / 1000 + 2);
  await expect.poll(() => reader.highlightedWord()).toBeGreaterThanOrEqual(index);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();

  // Subtitles of the video: a cue for each stretch of speech, on the words' own times.
  const dialog = new ExportDialog(page);
  await dialog.openFromReader();
  await expect(dialog.preview).toContainText('Source: press-statement.webm');
  await dialog.format.selectOption('srt');
  const target = join(out, 'press statement.srt');
  await dialog.path.fill(target);
  await dialog.save.click();
  await expect(dialog.status).toHaveText(`Saved to ${target}`);
  const cues = parseSync(readFileSync(target, 'utf8'))
    .filter((node): node is NodeCue => node.type === 'cue')
    .map((node) => node.data);
  expect(cues.length).toBeGreaterThan(1);
  expect(cues[0]!.text).toMatch(/^SPEAKER A: Good afternoon\./);
  expect(cues[0]!.start).toBe(words[0]!.start);
  expect(cues.at(-1)!.end).toBe(words.at(-1)!.end);
  expect(cues.at(-1)!.text).toMatch(/Thank you\.$/);
  for (const [i, cue] of cues.entries()) {
    expect(cue.end).toBeGreaterThan(cue.start);
    if (i > 0) expect(cue.start).toBeGreaterThanOrEqual(cues[i - 1]!.end);
  }
});

test('the video pane can be made small and hidden, and stays so when the transcript is opened again', async ({
  shell,
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const id = await importVideo(shell, page);
  const reader = new ReaderPage(page);
  await reader.open(id);
  const pane = new VideoPane(page);
  await expect(pane.large).toHaveAttribute('aria-pressed', 'true');
  const largeWidth = (await pane.state()).shownWidth;
  expect(largeWidth).toBeGreaterThan(200);

  // On the smallest supported window the large picture fits: the window does not scroll, down or sideways.
  await page.setViewportSize({ width: 1024, height: 640 });
  await expect(pane.video).toBeInViewport({ ratio: 1 });
  expect(
    await page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return [root.scrollHeight - window.innerHeight, root.scrollWidth - window.innerWidth];
    }),
  ).toEqual([0, 0]);
  await page.setViewportSize({ width: 1366, height: 768 });

  const axe = await new AxeBuilder({ page }).include('main').analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await pane.small.click();
  await expect(pane.small).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await pane.state()).shownWidth).toBeLessThan(largeWidth * 0.6);

  await reader.open(id);
  await expect(pane.small).toHaveAttribute('aria-pressed', 'true');
  expect((await pane.state()).shownWidth).toBeLessThan(largeWidth * 0.6);

  // Hidden, the picture goes but the sound still plays with the words.
  await pane.hide.click();
  await expect(pane.video).toBeHidden();
  await expect(pane.show).toBeVisible();
  await page.reload();
  await reader.turns.first().waitFor();
  await expect(pane.video).toBeHidden();
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => reader.currentTime(), { timeout: 10_000 }).toBeGreaterThan(1);
  await expect.poll(() => reader.highlightedWord()).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();

  await pane.show.click();
  await expect(pane.video).toBeVisible();
  await expect(pane.large).toHaveAttribute('aria-pressed', 'true');
});
