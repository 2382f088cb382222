import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { startWebApp } from '../../src/web-host/start';
import { test, expect, fixtureDir, screenshotDir, speed } from './fixtures';
import { BulkExportDialog, ExportDialog } from './pages/export-page';
import { LibraryPage } from './pages/library-page';
import { ReaderPage } from './pages/reader-page';
import { SettingsPage } from './pages/settings-page';

const interview = join(fixtureDir, 'interview-ferry-contract.wav');
const statement = join(fixtureDir, 'press-statement.wav');

let out: string;
test.beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'verbatim-e2e-export-'));
});
test.afterEach(() => rmSync(out, { recursive: true, force: true }));

/** The Word document's paragraphs as runs of text with their boldness, read from its XML. */
async function docxRuns(path: string): Promise<{ text: string; bold: boolean }[][]> {
  const zip = await JSZip.loadAsync(readFileSync(path));
  const xml = (await zip.file('word/document.xml')?.async('string')) ?? '';
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map(([p]) =>
    [...p.matchAll(/<w:r[ >][\s\S]*?<\/w:r>/g)].map(([r]) => ({
      text: [...r.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1] ?? '').join(''),
      bold: /<w:b\/>|<w:b /.test(r),
    })),
  );
}

test('exports a Word file from the reader with the renamed speaker in bold', async ({ page, shell }) => {
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(interview, { speaker_labels: true });
  await reader.renameSpeaker('B', 'Mayor Elena Alvarez');
  await expect(reader.speakerButtons('B').first()).toHaveText(/Mayor Elena Alvarez/);

  const dialog = new ExportDialog(page);
  await dialog.openFromReader();
  await expect(dialog.format).toHaveValue('docx');
  // The preview is page one as text: the title block, then the renamed speaker's words.
  await expect(dialog.preview).toContainText('Source: interview-ferry-contract.wav');
  await expect(dialog.preview).toContainText('Mayor Elena Alvarez: [00:00:');
  await dialog.option('Timestamps').selectOption('none');
  await expect(dialog.preview).not.toContainText('[00:00:');

  const target = join(out, 'ferry for the editor.docx');
  await dialog.path.fill(target);
  await dialog.save.click();
  await expect(dialog.status).toHaveText(`Saved to ${target}`);

  const paragraphs = await docxRuns(target);
  const speakerRuns = paragraphs
    .map((runs) => runs[0])
    .filter((run) => run?.text === 'Mayor Elena Alvarez: ');
  expect(speakerRuns.length).toBeGreaterThan(0);
  for (const run of speakerRuns) expect(run?.bold).toBe(true);
  expect(paragraphs.flat().some((run) => /\[\d\d:\d\d:\d\d\]/.test(run.text))).toBe(false);

  // The options are remembered for the next Word export, in this window and after a reload.
  await page.keyboard.press('Escape');
  await page.reload();
  await reader.turns.first().waitFor();
  await dialog.openFromReader();
  await expect(dialog.option('Timestamps')).toHaveValue('none');
});

test('exports only the selected words as an excerpt', async ({ page, shell }) => {
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(interview, { speaker_labels: true });
  // Select the fourth to the ninth word, as a reporter would drag across them.
  const selected = await page.evaluate(() => {
    const words = [...document.querySelectorAll<HTMLElement>('[data-w]')];
    const range = document.createRange();
    range.setStartBefore(words[3]!);
    range.setEndAfter(words[8]!);
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
    return words.slice(3, 9).map((word) => word.textContent?.trim() ?? '');
  });
  const dialog = new ExportDialog(page);
  await dialog.openFromReader();
  await expect(dialog.onlySelection).toBeChecked();
  await dialog.format.selectOption('txt');
  await expect(dialog.preview).toContainText('Excerpt: 00:00:0');
  await expect(dialog.preview).toContainText(selected.join(' '));
  const target = join(out, 'quote.txt');
  await dialog.path.fill(target);
  await dialog.save.click();
  await expect(dialog.status).toHaveText(`Saved to ${target}`);
  const body = readFileSync(target, 'utf8').split('\n\n').slice(1).join(' ');
  expect(body).toContain(selected.join(' '));
  const first = (await page.evaluate(() => document.querySelector('[data-w="0"]')?.textContent ?? '')).trim();
  expect(body.split(/\s+/)).not.toContain(first);
});

test('a file that cannot be written says why, and the dialog stays open to try again', async ({
  page,
  shell,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(statement, { speaker_labels: true });
  const dialog = new ExportDialog(page);
  await dialog.openFromReader();
  await dialog.format.selectOption('srt');
  await expect(dialog.option('Characters per line')).toHaveValue('42');
  await expect(dialog.preview).toContainText('-->');
  // A folder typed that never existed is not there; it was never "moved or renamed".
  await dialog.path.fill(join(out, 'never-made', 'statement.srt'));
  await dialog.save.click();
  await expect(dialog.dialog.getByRole('alert')).toContainText(
    `There is no folder ${join(out, 'never-made')}. Check the path, or choose a folder that exists.`,
  );
  await dialog.path.fill(join(out, 'statement.srt'));
  await dialog.save.click();
  await expect(dialog.status).toHaveText(`Saved to ${join(out, 'statement.srt')}`);
  expect(readdirSync(out)).toEqual(['statement.srt']);
});

test('exports two transcripts from the library into a folder, with progress and results', async ({
  page,
  shell,
}) => {
  await shell.open();
  const library = new LibraryPage(page);
  const first = await library.create(interview);
  const second = await library.create(statement);
  await library.setTitle(first.id, 'Ferry interview');
  await library.setTitle(second.id, 'Press statement');
  const reader = new ReaderPage(page);
  expect(await reader.waitForStatus(first.id)).toBe('completed');
  expect(await reader.waitForStatus(second.id)).toBe('completed');

  await expect(library.rowById(first.id)).toBeVisible();
  for (const id of [first.id, second.id]) await library.rowById(id).getByRole('checkbox').check();
  const bulk = new BulkExportDialog(page);
  await bulk.openFromLibrary();
  await bulk.format.selectOption('md');
  await bulk.folder.fill(out);
  await bulk.start.click();
  await expect(bulk.status).toHaveText(`Exported 2 transcripts to ${out}.`);
  await expect(bulk.progress).toHaveAttribute('value', '2');
  await expect(bulk.results).toHaveCount(2);
  await expect(bulk.results.nth(0)).toContainText('saved as');
  expect(readdirSync(out).sort()).toEqual(['Ferry interview.md', 'Press statement.md']);
  expect(readFileSync(join(out, 'Press statement.md'), 'utf8')).toContain('# Press statement');
});

test('axe finds no serious problem in either export dialog, in both themes', async ({ page, shell }) => {
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.createTranscript(interview, { speaker_labels: true });
  expect(await reader.waitForStatus(id)).toBe('completed');
  const settings = new SettingsPage(page);
  const library = new LibraryPage(page);
  const check = async (name: string): Promise<void> => {
    const results = await new AxeBuilder({ page }).include('dialog[open]').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
  };
  for (const theme of ['Light', 'Dark'] as const) {
    await shell.goTo('settings');
    await settings.chooseTheme(theme);
    await reader.open(id);
    const dialog = new ExportDialog(page);
    await dialog.openFromReader();
    await expect(dialog.preview).toContainText('Source:');
    await check(`export-dialog-${theme.toLowerCase()}`);
    await dialog.format.selectOption('vtt');
    await expect(dialog.preview).toContainText('WEBVTT');
    await check(`export-dialog-vtt-${theme.toLowerCase()}`);
    await page.keyboard.press('Escape');
    await expect(dialog.dialog).toBeHidden();

    await shell.goTo('library');
    await library.rowById(id).getByRole('checkbox').check();
    const bulk = new BulkExportDialog(page);
    await bulk.openFromLibrary();
    await check(`export-bulk-${theme.toLowerCase()}`);
    await page.keyboard.press('Escape');
    await library.rowById(id).getByRole('checkbox').uncheck();
  }
});

test('a typed path follows the format: switching from Word to SRT saves switch-test.srt', async ({
  page,
  shell,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(statement, { speaker_labels: true });
  const dialog = new ExportDialog(page);
  await dialog.openFromReader();
  await dialog.format.selectOption('docx');
  await dialog.path.fill(join(out, 'switch-test.docx'));
  await dialog.format.selectOption('srt');
  await expect(dialog.path).toHaveValue(join(out, 'switch-test.srt'));
  await dialog.save.click();
  await expect(dialog.status).toHaveText(`Saved to ${join(out, 'switch-test.srt')}`);
  expect(readdirSync(out)).toContain('switch-test.srt');
  expect(readdirSync(out)).not.toContain('switch-test.docx.srt');
});

test('saving over a file already there asks first: Keep it leaves it, Replace it writes', async ({
  page,
  shell,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(statement, { speaker_labels: true });
  const target = join(out, 'for-the-editor.txt');
  writeFileSync(target, 'the editor’s own notes');
  const dialog = new ExportDialog(page);
  await dialog.openFromReader();
  await dialog.format.selectOption('txt');
  await dialog.path.fill(target);
  await dialog.save.click();

  const question = dialog.dialog.getByTestId('export-replace');
  await expect(question).toContainText('for-the-editor.txt already exists in');
  await question.getByRole('button', { name: 'Keep it' }).click();
  await expect(question).toHaveCount(0);
  expect(readFileSync(target, 'utf8')).toBe('the editor’s own notes');
  await expect(dialog.status).toHaveText('');

  await dialog.save.click();
  await question.getByRole('button', { name: 'Replace it' }).click();
  await expect(dialog.status).toHaveText(`Saved to ${target}`);
  expect(readFileSync(target, 'utf8')).toContain('press-statement');
  expect(readFileSync(target, 'utf8')).not.toContain('the editor’s own notes');
});

test('the folder offered for an export, gone since it was offered, is said to be no longer there', async ({
  page,
  emulator,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-export-data-'));
  const offered = join(out, 'Documents');
  mkdirSync(offered);
  const host = await startWebApp({
    dataDir,
    apiKey: emulator.options.key,
    transcriptionUrl: emulator.url,
    timeScale: speed,
    exportDir: offered,
  });
  try {
    await page.goto(host.openUrl);
    const reader = new ReaderPage(page);
    await reader.openNewTranscript(statement, {});
    const dialog = new ExportDialog(page);
    await dialog.openFromReader();
    await dialog.format.selectOption('txt');
    await expect(dialog.path).toHaveValue(join(offered, 'press-statement.txt'));
    // The drive it was on is unplugged while the dialog is open.
    rmSync(offered, { recursive: true });
    await dialog.save.click();
    await expect(dialog.dialog.getByRole('alert')).toContainText(
      `The folder ${offered} is no longer there (moved, renamed or on a drive that was removed). Choose another folder.`,
    );
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
