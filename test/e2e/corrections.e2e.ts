import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { test, expect, fixtureDir } from './fixtures';
import { CorrectionsPage } from './pages/corrections-page';
import { ExportDialog } from './pages/export-page';
import { LibraryPage } from './pages/library-page';

/**
 * The correction workspace (issue #19) in Chromium through the web host: a misheard name typed
 * over in the reader reaches seeking, library search, Copy quote and the exports; undo and redo
 * survive a reload; speakers are reassigned, split and merged; the machine transcript and
 * reverting a paragraph; autosave without leaving the turn.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

let corrections: CorrectionsPage;
let id: string;

test.beforeEach(async ({ shell, page }) => {
  await shell.open();
  corrections = new CorrectionsPage(page);
  id = await corrections.reader.openNewTranscript(interview, { speaker_labels: true });
  await expect.poll(() => corrections.reader.audioReady()).toBeGreaterThanOrEqual(1);
});

test('a misheard name typed over reaches seeking, search, Copy quote and the DOCX and SRT exports', async ({
  page,
  context,
}) => {
  const { reader } = corrections;
  await expect(corrections.undo).toBeDisabled();
  await corrections.selectWordInEditor('Gull');
  await expect(corrections.editor).toBeFocused();
  await page.keyboard.type('Gall');
  await page.keyboard.press('Enter');
  await expect(corrections.editor).toHaveCount(0);

  // The turn shows the new spelling as words again, marked as corrected, and the old one is gone.
  const corrected = reader.word('Gall');
  await expect(corrected).toHaveCount(1);
  await expect(corrected).toHaveClass(/corrected/);
  await expect(reader.word('Gull')).toHaveCount(0);
  await expect(corrections.undo).toHaveAccessibleName('Undo: Changed “Gull” to “Gall”');
  // Focus goes back to the turn's text, so the keyboard carries on from there.
  await expect(page.locator(':focus')).toHaveClass(/words/);

  // Stored with the time of the word it replaced; clicking it plays from there.
  const stored = await corrections.storedWords(id);
  const gall = stored.find((word) => word.text === 'Gall');
  expect(gall?.corrected).toBe(true);
  expect(gall!.start).toBeGreaterThan(20_000);
  await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);
  await page.keyboard.press('Escape');
  await corrected.click();
  await expect.poll(() => reader.currentTime()).toBeGreaterThanOrEqual(gall!.start / 1000 - 0.05);
  expect(await reader.currentTime()).toBeLessThan(gall!.start / 1000 + 1);
  await page.keyboard.press('Escape');
  await expect.poll(() => reader.paused()).toBe(true);

  // Library search knows the new spelling and no longer the old one.
  const library = new LibraryPage(page);
  expect((await library.searchApi('Gall')).total).toBe(1);
  expect((await library.searchApi('Gull')).total).toBe(0);

  // Copy quote carries the correction.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate(() => {
    const word = [...document.querySelectorAll<HTMLElement>('[data-w]')].find(
      (w) => w.textContent === 'Gall',
    );
    const start = word?.previousElementSibling?.previousElementSibling;
    if (!word || !start) throw new Error('words not found');
    const range = document.createRange();
    range.setStartBefore(start);
    range.setEndAfter(word);
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
  });
  await page.getByRole('button', { name: 'Copy quote' }).click();
  await expect(reader.notice).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
    /^“Hollow and Gall” — Speaker B, \[00:00:2\d\]$/,
  );

  // The Word and SRT exports carry it.
  const out = mkdtempSync(join(tmpdir(), 'verbatim-e2e-corrections-'));
  try {
    await page.evaluate(() => window.getSelection()?.removeAllRanges());
    const dialog = new ExportDialog(page);
    await dialog.openFromReader();
    await dialog.path.fill(join(out, 'ferry.docx'));
    await dialog.save.click();
    await expect(dialog.status).toHaveText(`Saved to ${join(out, 'ferry.docx')}`);
    const zip = await JSZip.loadAsync(readFileSync(join(out, 'ferry.docx')));
    const xml = (await zip.file('word/document.xml')?.async('string')) ?? '';
    expect(xml).toContain('Gall Island');
    expect(xml).not.toContain('Gull');

    await dialog.format.selectOption('srt');
    await dialog.path.fill(join(out, 'ferry.srt'));
    await dialog.save.click();
    await expect(dialog.status).toHaveText(`Saved to ${join(out, 'ferry.srt')}`);
    const srt = readFileSync(join(out, 'ferry.srt'), 'utf8');
    expect(srt).toMatch(/Gall\s+Island/);
    expect(srt).not.toContain('Gull');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('after a reload, Undo takes the correction back and Redo makes it again', async ({ page }) => {
  const { reader } = corrections;
  await corrections.retype('Gull', 'Gall');
  await page.reload();
  await reader.turns.first().waitFor();
  await expect(reader.word('Gall')).toHaveCount(1);
  await expect(corrections.undo).toHaveAccessibleName('Undo: Changed “Gull” to “Gall”');

  // Ctrl+Z from the reader (not typing): the history, not a field's.
  await reader.transcript.focus();
  await page.keyboard.press('Control+z');
  await expect(reader.word('Gull')).toHaveCount(1);
  await expect(reader.word('Gall')).toHaveCount(0);
  await expect(corrections.redo).toHaveAccessibleName('Redo: Changed “Gull” to “Gall”');
  await expect(corrections.undo).toBeDisabled();

  await page.keyboard.press('Control+Shift+z');
  await expect(reader.word('Gall')).toHaveCount(1);
  await page.keyboard.press('Control+z');
  await expect(reader.word('Gull')).toHaveCount(1);
  // Ctrl+Y redoes too (Windows and Linux), and so does the toolbar button.
  await page.keyboard.press('Control+y');
  await expect(reader.word('Gall')).toHaveCount(1);
  await corrections.undo.click();
  await expect(reader.word('Gull')).toHaveCount(1);
  await corrections.redo.click();
  await expect(reader.word('Gall')).toHaveCount(1);
  expect((await corrections.storedWords(id)).some((word) => word.text === 'Gall')).toBe(true);
});

test('Ctrl+Z while typing in a turn stores the typing first, then undoes it as one step', async ({
  page,
}) => {
  const { reader } = corrections;
  await corrections.selectWordInEditor('Gull');
  await page.keyboard.type('Gall');
  await page.keyboard.press('Control+z');
  await expect(corrections.editor).toHaveCount(0);
  await expect(reader.word('Gull')).toHaveCount(1);
  await expect(corrections.redo).toHaveAccessibleName('Redo: Changed “Gull” to “Gall”');
});

test('typing stops for a second: it is stored without leaving the turn, and a reload shows it', async ({
  page,
}) => {
  const { reader } = corrections;
  await corrections.selectWordInEditor('Gull');
  await page.keyboard.type('Gall');
  await page.waitForTimeout(1200);
  // Still typing in the turn: the autosave did not take the caret away.
  await expect(corrections.editor).toBeFocused();
  await expect(corrections.undo).toHaveAccessibleName('Undo: Changed “Gull” to “Gall”');
  await page.keyboard.type(' beach');
  await page.waitForTimeout(1200);
  await page.reload();
  await reader.turns.first().waitFor();
  await expect(reader.word('Gall')).toHaveCount(1);
  await expect(reader.word('beach')).toHaveCount(1);
  // Both autosaves were one edit: one Undo takes back the whole session of typing.
  await corrections.undo.click();
  await expect(reader.word('Gull')).toHaveCount(1);
  await expect(reader.word('beach')).toHaveCount(0);
  await expect(corrections.undo).toBeDisabled();
});

test('a sentence, a turn and a split go to another speaker; a merge joins two turns', async ({ page }) => {
  const { reader } = corrections;
  // "Thank you, Daniel. It's a pleasure to be here." is the mayor's (B).
  expect(await corrections.speakerOf('pleasure')).toBe('B');
  const turnsBefore = await reader.turns.count();

  // Split at "It's": from there it is a new speaker, the producer.
  await corrections.openMenuOnWord('pleasure');
  await expect(new AxeBuilder({ page }).include('[role="dialog"]').analyze()).resolves.toMatchObject({
    violations: [],
  });
  await page.keyboard.press('Escape');
  await expect(corrections.menu).toHaveCount(0);

  await corrections.openMenuOnWord("It's");
  await corrections.changeSpeaker('split', 'A new speaker…', 'Producer');
  await expect(corrections.turnWith('pleasure').locator('button[data-speaker]')).toHaveText('Producer');
  expect(await corrections.speakerOf('Daniel.')).toBe('B');
  await expect(reader.notice).toContainText('Turn split');

  // The whole turn to speaker A: it joins A's turns on either side.
  await corrections.openMenu('pleasure');
  await corrections.changeSpeaker('turn', 'Speaker A');
  expect(await corrections.speakerOf('pleasure')).toBe('A');

  // Merge the mayor's next turn into the one before: it becomes A's too.
  await corrections.openMenu('newest');
  await corrections.menu.getByRole('button', { name: 'Merge into the turn before' }).click();
  await expect(corrections.menu).toHaveCount(0);
  expect(await corrections.speakerOf('newest')).toBe('A');
  expect(await reader.turns.count()).toBeLessThan(turnsBefore);

  // Every step is one undo.
  await corrections.undo.click();
  await expect.poll(() => corrections.speakerOf('newest')).toBe('B');
});

test('the machine transcript shows the old word, read only; reverting the paragraph brings it back', async ({
  page,
}) => {
  const { reader } = corrections;
  await corrections.retype('Gull', 'Gall');
  await corrections.toggleMachine();
  await expect(corrections.machineLabel).toBeVisible();
  await reader.more.click();
  await expect(corrections.machineToggle).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(reader.moreMenu).toBeHidden();
  await expect(reader.word('Gull')).toHaveCount(1);
  await expect(reader.word('Gall')).toHaveCount(0);
  // Read only: a click plays but opens no editor, and there is no correction menu.
  await reader.word('Gull').click();
  await expect(corrections.editor).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Correct the speaker/ })).toHaveCount(0);
  await expect(new AxeBuilder({ page }).include('main').analyze()).resolves.toMatchObject({ violations: [] });
  await corrections.toggleMachine();
  await expect(reader.word('Gall')).toHaveCount(1);

  await corrections.openMenuOnWord('Gall');
  await corrections.menu.getByRole('button', { name: 'Revert this paragraph' }).click();
  await expect(reader.word('Gull')).toHaveCount(1);
  await expect(reader.word('Gall')).toHaveCount(0);
  await expect(reader.notice).toContainText('Ctrl+Z brings your corrections back');
  await page.keyboard.press('Control+z');
  await expect(reader.word('Gall')).toHaveCount(1);
});

test('the reader with a turn open for typing and its hint is axe clean', async ({ page }) => {
  await corrections.selectWordInEditor('Gull');
  const results = await new AxeBuilder({ page }).include('main').analyze();
  expect(results.violations).toEqual([]);
});
