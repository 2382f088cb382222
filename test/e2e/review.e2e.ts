import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import { LibraryPage } from './pages/library-page';
import { ReaderPage } from './pages/reader-page';
import { FindReplaceBar, ReviewPanel, checkParagraphs, storedTranscript } from './pages/review-page';
import type { TranscriptDetail } from '../../src/shared/ipc/contract';

const interview = join(fixtureDir, 'interview-ferry-contract.wav');
const statement = join(fixtureDir, 'press-statement.wav');

/**
 * Axe's verdict on the page as it is: asserted once, after the state it checks has settled. (A
 * poll would give up before its first answer on a busy machine: each call injects axe and opens
 * a blank page to finish the run, seconds before the second-long audit even starts.)
 */
async function seriousViolations(page: Page): Promise<string[]> {
  const report = await new AxeBuilder({ page }).include('main').analyze();
  return report.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** The stored sentences' words, each with its flat index (as the reader numbers them) and paragraph. */
function wordsOf(
  detail: TranscriptDetail,
): { index: number; text: string; start: number; low: boolean; paragraph: number }[] {
  const paragraphOf = (ms: number): number =>
    detail.paragraphs.reduce((found, paragraph, index) => (paragraph.startMs <= ms ? index : found), -1);
  return detail.sentences
    .flatMap((sentence) =>
      sentence.words.map((word) => ({
        text: word.text,
        start: word.start,
        low: word.confidence < 0.6 && !word.corrected,
        paragraph: paragraphOf(sentence.startMs),
      })),
    )
    .map((word, index) => ({ ...word, index }));
}

/** The sentences' text as stored, joined: what search and the exports read. */
async function storedText(page: Page, id: string): Promise<string> {
  const detail = await storedTranscript(page, id);
  return detail.sentences.map((sentence) => sentence.words.map((word) => word.text).join(' ')).join(' ');
}

const occurrences = (text: string, word: RegExp): number => text.match(word)?.length ?? 0;

test.describe('find and replace', () => {
  test('counts matches with whole word and match case; replace one changes only that occurrence; replace all is one undo', async ({
    shell,
    page,
  }) => {
    await shell.open();
    const reader = new ReaderPage(page);
    const bar = new FindReplaceBar(page);
    const id = await reader.openNewTranscript(interview, { speaker_labels: true });
    const before = await storedText(page, id);
    const ferries = occurrences(before, /\bferry\b/g);
    expect(ferries).toBe(3);

    // The count, and the toggles that narrow it: "the" is also inside "They" and "they".
    await reader.transcript.click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+f');
    await page.keyboard.type('the');
    const anyThe = occurrences(before, /the/gi);
    const wholeThe = occurrences(before, /\bthe\b/gi);
    const wholeLowerThe = occurrences(before, /\bthe\b/g);
    expect(anyThe).toBeGreaterThan(wholeThe);
    expect(wholeThe).toBeGreaterThan(wholeLowerThe);
    await expect(bar.count).toHaveText(`1 of ${anyThe} matches`);
    await bar.wholeWord.click();
    await expect(bar.wholeWord).toHaveAttribute('aria-pressed', 'true');
    await expect(bar.count).toHaveText(`1 of ${wholeThe} matches`);
    await bar.matchCase.click();
    await expect(bar.count).toHaveText(`1 of ${wholeLowerThe} matches`);
    await bar.matchCase.click();

    // The second "ferry" (the old one) is the current match; Ctrl+H opens replace on it.
    await bar.findBox.fill('ferry');
    await expect(bar.count).toHaveText('1 of 3 matches');
    await bar.findBox.press('Enter');
    await expect(bar.count).toHaveText('2 of 3 matches');
    await page.keyboard.press('Control+h');
    await expect(bar.replaceBox).toBeFocused();
    await bar.replaceBox.fill('vessel');
    await bar.replaceButton.click();
    await expect(bar.result).toHaveText('Replaced 1 occurrence — Undo with Ctrl+Z');
    await expect(bar.count).toHaveText(/^\d of 2 matches$/);
    await expect(reader.transcript.locator('[data-w]').filter({ hasText: /^vessel$/ })).toHaveCount(1);
    const once = await storedText(page, id);
    expect(once).toContain('the old vessel was');
    expect(occurrences(once, /\bferry\b/g)).toBe(2);
    expect(once).toContain('the ferry contract');
    expect(once).toContain('new ferry service');

    // Replace all: every remaining one, as one edit.
    await bar.replaceBox.fill('boat');
    await bar.replaceAllButton.click();
    await expect(bar.result).toHaveText('Replaced 2 occurrences — Undo with Ctrl+Z');
    await expect(bar.count).toHaveText('No matches');
    await expect(reader.transcript.locator('[data-w]').filter({ hasText: /^boat$/ })).toHaveCount(2);
    const all = await storedText(page, id);
    expect(occurrences(all, /\bferry\b/g)).toBe(0);
    expect(occurrences(all, /\bboat\b/g)).toBe(2);

    // One Undo brings every one of them back, and leaves the single replacement before it.
    await reader.heading.focus();
    await page.keyboard.press('Control+z');
    await expect(bar.count).toHaveText('1 of 2 matches');
    await expect(reader.transcript.locator('[data-w]').filter({ hasText: /^boat$/ })).toHaveCount(0);
    await expect(reader.transcript.locator('[data-w]').filter({ hasText: /^vessel$/ })).toHaveCount(1);
    expect(await storedText(page, id)).toBe(once);

    expect(await seriousViolations(page)).toEqual([]);

    // The library's search finds the replacement, and no longer what it replaced.
    await shell.goTo('library');
    const library = new LibraryPage(page);
    await library.search('vessel');
    await expect(library.hits).toHaveCount(1);
    await expect(library.hits.first()).toContainText('vessel');
    await library.search('old ferry');
    await expect(library.matchCount).toHaveText('0 matches');
  });
});

test.describe('the review pass', () => {
  test('next uncertain word moves to a low-confidence word and skips checked paragraphs; stamps show in the reader and the library, and the filter hides a fully checked transcript', async ({
    shell,
    page,
  }) => {
    await shell.open();
    const reader = new ReaderPage(page);
    const review = new ReviewPanel(page);
    const otherId = await reader.createTranscript(statement, {});
    expect(await reader.waitForStatus(otherId)).toBe('completed');
    const id = await reader.openNewTranscript(interview, { speaker_labels: true });
    const detail = await storedTranscript(page, id);
    const words = wordsOf(detail);
    const low = words.filter((word) => word.low);
    const paragraphs = detail.paragraphs.length;
    expect(low.length).toBeGreaterThanOrEqual(4);
    expect(paragraphs).toBeGreaterThan(4);
    await expect(review.headerProgress).toHaveText(`Checked 0/${paragraphs}`);
    await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);

    // F8: to the first uncertain word, heard from its start and shown.
    await reader.heading.focus();
    await page.keyboard.press('F8');
    const [first, second, third] = low as [(typeof low)[0], (typeof low)[0], (typeof low)[0]];
    await expect.poll(() => reader.currentTime()).toBeCloseTo(first.start / 1000, 1);
    await expect(reader.transcript.locator(`[data-w="${first.index}"]`)).toHaveClass(/\bnow\b/);
    await expect(reader.transcript.locator(`[data-w="${first.index}"]`)).toHaveClass(/\blow\b/);
    await page.keyboard.press('F8');
    await expect.poll(() => reader.currentTime()).toBeCloseTo(second.start / 1000, 1);
    await expect(reader.transcript.locator(`[data-w="${second.index}"]`)).toBeInViewport();

    // Stamp the paragraph of the third: F8 now passes over it.
    await review.tab.click();
    await review.checkbox(third.paragraph).check();
    await expect(review.progress).toHaveText(
      `1 of ${paragraphs} paragraphs checked (${Math.floor((100 * 1) / paragraphs)}%)`,
    );
    await expect(review.progressBar).toHaveAttribute('value', '1');
    await expect(review.headerProgress).toHaveText(`Checked 1/${paragraphs}`);
    await expect(review.row(third.paragraph)).toContainText(/Checked \w{3} \d+, \d{4}/);
    const next = low.find((word) => word.index > second.index && word.paragraph !== third.paragraph);
    expect(next).toBeDefined();
    await page.keyboard.press('F8');
    await expect.poll(() => reader.currentTime()).toBeCloseTo(next!.start / 1000, 1);
    await page.keyboard.press('Shift+F8');
    await expect.poll(() => reader.currentTime()).toBeCloseTo(second.start / 1000, 1);

    // The paragraph now playing, stamped with the button (F9 does the same).
    await review.markPlaying.click();
    await expect(review.checkbox(second.paragraph)).toBeChecked();
    await expect(review.headerProgress).toHaveText(`Checked 2/${paragraphs}`);
    // Taken back, and stamped again with the key.
    await review.checkbox(second.paragraph).uncheck();
    await expect(review.headerProgress).toHaveText(`Checked 1/${paragraphs}`);
    await page.keyboard.press('F9');
    await expect(review.checkbox(second.paragraph)).toBeChecked();
    await expect(review.headerProgress).toHaveText(`Checked 2/${paragraphs}`);
    expect(await seriousViolations(page)).toEqual([]);

    // The stamps survive a reload.
    await page.reload();
    await reader.turns.first().waitFor();
    await expect(review.headerProgress).toHaveText(`Checked 2/${paragraphs}`);

    // The library row shows the progress; "Not fully checked" keeps both transcripts until one is done.
    await shell.goTo('library');
    const library = new LibraryPage(page);
    const row = library.rowById(id);
    await expect(row.getByTestId('review')).toHaveText(`Review: Checked 2/${paragraphs}`);
    await library.filter('Review').selectOption('unchecked');
    await expect(library.rowById(otherId)).toBeVisible();
    await expect(row).toBeVisible();
    // Stamped elsewhere (another window): the row follows through job.updated and leaves the filtered list.
    await checkParagraphs(
      page,
      id,
      Array.from({ length: paragraphs }, (_, index) => index),
    );
    await expect(row).toBeHidden();
    await expect(library.rowById(otherId)).toBeVisible();
    await library.filter('Review').selectOption('');
    await expect(row.getByTestId('review')).toHaveText('Review: Fully checked');

    // The filter is kept while the journalist goes to a transcript and back, like the others.
    await library.filter('Review').selectOption('unchecked');
    await library.rowById(otherId).getByRole('link').click();
    await reader.turns.first().waitFor();
    await shell.goTo('library');
    await expect(library.filter('Review')).toHaveValue('unchecked');
    await expect(library.rowById(otherId)).toBeVisible();
    await expect(row).toBeHidden();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
