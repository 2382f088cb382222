import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import { callBridge } from './pages/bridge';
import { GlossaryPage } from './pages/glossary-page';
import { NewTranscriptionPage } from './pages/new-transcription-page';
import { ReaderPage } from './pages/reader-page';

/**
 * The newsroom glossary (issue #21) in Chromium through the web host: entries kept and edited
 * in place, the New transcription form showing what the glossaries send, and a name added in
 * the Glossary view coming back spelled right from the service.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

test('a name added in the Glossary view comes back spelled right from a new transcription', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('glossary');
  const glossary = new GlossaryPage(page);
  await expect(glossary.glossary('General')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByText('No entries yet')).toBeVisible();

  await glossary.add({ term: 'Álvarez', kind: 'person', misheard: '' });
  await expect(glossary.rows).toHaveCount(1);
  await expect(glossary.field('Spelling', 'Álvarez')).toHaveValue('Álvarez');
  await expect(glossary.addForm.getByLabel('Correct spelling')).toBeFocused();
  // Edited in place: Enter saves, and the stored value survives a reload.
  await glossary.field('Note', 'Álvarez').fill('Mayor of Port Hollow');
  await glossary.field('Note', 'Álvarez').press('Enter');
  await glossary.field('Misheard forms', 'Álvarez').fill('Alvares, Al Varez');
  await glossary.field('Misheard forms', 'Álvarez').press('Tab');
  // Escape puts back what is stored.
  await glossary.field('Spelling', 'Álvarez').fill('');
  await glossary.field('Spelling', 'Álvarez').press('Escape');
  await expect(glossary.field('Spelling', 'Álvarez')).toHaveValue('Álvarez');
  await page.reload();
  await expect(glossary.field('Note', 'Álvarez')).toHaveValue('Mayor of Port Hollow');
  await expect(glossary.field('Misheard forms', 'Álvarez')).toHaveValue('Alvares, Al Varez');
  await expect(glossary.glossary('General')).toContainText('1 entry');

  // A spelling the glossary has already is refused beside the row.
  await glossary.add({ term: 'Reyes', kind: 'person' });
  await glossary.field('Spelling', 'Reyes').fill('ÁLVAREZ');
  await glossary.field('Spelling', 'Reyes').press('Enter');
  await expect(glossary.field('Spelling', 'Reyes')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toContainText('already');
  await glossary.field('Spelling', 'Reyes').press('Escape');
  await page.getByRole('button', { name: 'Remove “Reyes”' }).click();
  await expect(glossary.rows).toHaveCount(1);

  // Search ignores case and accents, and says when nothing matches.
  await glossary.search.fill('alvarez');
  await expect(glossary.rows).toHaveCount(1);
  await glossary.search.fill('port hollow');
  await expect(glossary.rows).toHaveCount(1);
  await glossary.search.fill('submarine');
  await expect(glossary.rows).toHaveCount(0);
  await expect(page.getByText('No entry matches “submarine”.')).toBeVisible();
  await glossary.search.fill('');
  const report = await new AxeBuilder({ page }).include('main').analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // The New transcription form shows General ticked (used by default) and what it sends.
  await shell.goTo('new');
  const form = new NewTranscriptionPage(page);
  await expect(page.getByRole('checkbox', { name: 'General (1 entry)' })).toBeChecked();
  await expect(page.getByTestId('glossary-summary')).toHaveText('Sends 1 key term and 1 spelling.');
  // Each misheard form is rewritten to the one-word spelling: nothing the rules cannot express.
  await expect(page.getByTestId('glossary-not-expressible')).toHaveCount(0);
  await form.fileInput.setInputFiles(interview);
  await form.submit.click();
  await expect(shell.heading).toHaveText('Library');
  let id = '';
  await expect
    .poll(async () => {
      const [job] = await callBridge<{ id: string; status: string }[]>(page, 'transcripts.list');
      id = job?.id ?? '';
      return job?.status;
    })
    .toBe('completed');
  const reader = new ReaderPage(page);
  await reader.open(id);
  await expect(reader.turns.first()).toContainText('Mayor Elena Álvarez');
});

test('the form names the key terms a model’s limit leaves out and the spellings the service cannot write', async ({
  shell,
  page,
}) => {
  await shell.open();
  const folder = mkdtempSync(join(tmpdir(), 'verbatim-glossary-e2e-'));
  const csv = join(folder, 'council.csv');
  const rows = Array.from(
    { length: 205 },
    (_, index) => `Councillor ${String(index).padStart(3, '0')},person,,`,
  );
  writeFileSync(
    csv,
    ['term,kind,misheard,note', ...rows, 'North Wind Ferries,organisation,Northwind Ferries,'].join('\n'),
  );

  await shell.goTo('glossary');
  const glossary = new GlossaryPage(page);
  await glossary.create('Council beat');
  await expect(glossary.glossary('Council beat')).toHaveAttribute('aria-current', 'true');
  await glossary.csvPath.fill(csv);
  await page.getByRole('button', { name: 'Import CSV…' }).click();
  await expect(page.getByText('Imported 206 new entries and updated 0.')).toBeVisible();
  await expect(glossary.rows).toHaveCount(206);
  // Edited last, so the most recently used: kept when the limit bites, though last in order.
  await glossary.field('Note', 'Councillor 204').fill('ward 1');
  await glossary.field('Note', 'Councillor 204').press('Enter');
  await expect(glossary.field('Note', 'Councillor 204')).toHaveValue('ward 1');

  // Exporting where a file is asks before replacing it.
  const out = join(folder, 'out.csv');
  writeFileSync(out, 'old');
  await glossary.csvPath.fill(out);
  await page.getByRole('button', { name: 'Export CSV…' }).click();
  await page.getByRole('button', { name: 'Replace it' }).click();
  await expect(page.getByText(`Saved 206 entries to ${out}`)).toBeVisible();
  expect(readFileSync(out, 'utf8')).toContain('North Wind Ferries,organisation,Northwind Ferries,');

  await shell.goTo('new');
  const council = page.getByRole('checkbox', { name: 'Council beat (206 entries)' });
  await expect(council).not.toBeChecked();
  await council.check();
  // The default speech models include universal-2: 200 key terms at most.
  await expect(page.getByTestId('glossary-summary')).toHaveText('Sends 200 key terms and 0 spellings.');
  const leftOut = page.getByTestId('glossary-left-out');
  await expect(leftOut).toContainText('these 6, used least recently, are left out');
  await expect(leftOut).toContainText(
    'Councillor 199, Councillor 200, Councillor 201, Councillor 202, Councillor 203, North Wind Ferries',
  );
  await expect(leftOut).not.toContainText('Councillor 204');
  await expect(page.getByTestId('glossary-not-expressible')).toContainText(
    'North Wind Ferries: Custom spelling can only write a single word, and “North Wind Ferries” is 3 words: its misheard forms (Northwind Ferries) are not replaced.',
  );
  await page.getByRole('checkbox', { name: 'Council beat (206 entries)' }).uncheck();
  await expect(page.getByTestId('glossary-summary')).toHaveText('Sends 0 key terms and 0 spellings.');
  await expect(leftOut).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'General (0 entries)' }).uncheck();
  await expect(page.getByTestId('glossary-summary')).toHaveText(
    'No glossary: the service gets no names to listen for.',
  );
});

test('a glossary set for a preset is ticked when the form starts from that preset', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('new');
  await page.getByLabel('Save these options as a preset').fill('Press conference');
  await page.getByRole('button', { name: 'Save preset' }).click();
  await expect(page.getByText('Preset "Press conference" saved.')).toBeVisible();

  await shell.goTo('glossary');
  const glossary = new GlossaryPage(page);
  await glossary.create('Council');
  // Renamed in place: the field opens focused on the name; Escape keeps it, Enter saves.
  await page.getByRole('button', { name: 'Rename…' }).click();
  const name = page.getByLabel('Glossary name');
  await expect(name).toBeFocused();
  await expect(name).toHaveValue('Council');
  await name.fill('Harbour');
  await name.press('Escape');
  await expect(page.getByRole('heading', { name: 'Council', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Rename…' }).click();
  await page.getByLabel('Glossary name').fill('Council beat');
  await page.getByLabel('Glossary name').press('Enter');
  await expect(page.getByRole('heading', { name: 'Council beat', level: 2 })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Use for every new transcription' })).not.toBeChecked();
  await page
    .getByRole('group', { name: 'Use with these presets' })
    .getByRole('checkbox', { name: 'Press conference' })
    .check();
  await expect(glossary.glossary('Council beat')).toBeVisible();

  await shell.goTo('new');
  // The options were just saved as that preset: the form starts from it, and so does its glossary.
  const council = page.getByRole('checkbox', { name: 'Council beat (0 entries)' });
  await expect(page.getByLabel('Start from')).toHaveValue('Press conference');
  await expect(council).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'General (0 entries)' })).toBeChecked();
  await page.getByLabel('Start from').selectOption('');
  await expect(council).not.toBeChecked();
  await page.getByLabel('Start from').selectOption('Press conference');
  await expect(council).toBeChecked();
  // Unticked by hand, it stays so until another preset is chosen.
  await council.uncheck();
  await expect(page.getByTestId('glossary-summary')).toHaveText('Sends 0 key terms and 0 spellings.');
  await page.getByLabel('Start from').selectOption('');
  await page.getByLabel('Start from').selectOption('Press conference');
  await expect(council).toBeChecked();
});

test('a spelling a glossary has already is said, with where it is, and the journalist decides', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('glossary');
  const glossary = new GlossaryPage(page);
  const same = page.getByTestId('same-spelling');
  const spelling = glossary.addForm.getByLabel('Correct spelling');
  await glossary.add({ term: 'Brennan', kind: 'person', misheard: 'Brenan' });
  await expect(glossary.rows).toHaveCount(1);

  // The same name in other capitals: nothing is added, the typed text stays, and the entry is named.
  await glossary.add({ term: 'brennan', misheard: 'Bren Ann' });
  await expect(same).toContainText('General already has “Brennan” (person, misheard as Brenan).');
  await expect(spelling).toHaveValue('brennan');
  await expect(glossary.rows).toHaveCount(1);
  await same.getByRole('button', { name: 'Add what you typed to “Brennan”' }).click();
  await expect(same).toBeHidden();
  await expect(glossary.field('Misheard forms', 'Brennan')).toHaveValue('Brenan, Bren Ann');
  await expect(spelling).toHaveValue('');
  await expect(glossary.rows).toHaveCount(1);

  // In another glossary: it says where, and adds it here too only when asked.
  await glossary.create('Council beat');
  await expect(glossary.glossary('Council beat')).toHaveAttribute('aria-current', 'true');
  await glossary.add({ term: 'BRENNAN' });
  await expect(same).toContainText('“Brennan” is already in General (person, misheard as Brenan, Bren Ann).');
  await same.getByRole('button', { name: 'Show it in General' }).click();
  await expect(glossary.glossary('General')).toHaveAttribute('aria-current', 'true');
  await expect(glossary.search).toHaveValue('Brennan');
  await expect(glossary.rows).toHaveCount(1);
  await expect(spelling).toHaveValue('BRENNAN');
  await glossary.search.fill('');
  await glossary.glossary('Council beat').click();
  await glossary.addForm.getByRole('button', { name: 'Add' }).click();
  await same.getByRole('button', { name: 'Add to Council beat too' }).click();
  await expect(glossary.rows).toHaveCount(1);
  await expect(glossary.field('Spelling', 'BRENNAN')).toHaveValue('BRENNAN');
  await expect(spelling).toHaveValue('');
  const report = await new AxeBuilder({ page }).include('main').analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
});

test('a misheard form that is part of its spelling is said as it is typed, and the form says it is not sent', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('glossary');
  const glossary = new GlossaryPage(page);
  const reason =
    '“Northwind” is part of “Northwind Ferries” itself: as a custom spelling it would have the service write the name twice wherever the recording says it right, so it is never sent.';
  await glossary.addForm.getByLabel('Correct spelling').fill('Northwind Ferries');
  await glossary.addForm.getByLabel('Misheard as (commas between)').fill('Northwind, North Wynd');
  await expect(page.getByTestId('form-inside-spelling')).toContainText(reason);
  await glossary.addForm.getByRole('button', { name: 'Add' }).click();
  await expect(glossary.rows).toHaveCount(1);
  await expect(page.getByTestId('form-inside-spelling')).toHaveCount(0);
  await expect(page.getByTestId('inside-spelling')).toContainText(reason);

  // A file that imports nothing changes nothing.
  const folder = mkdtempSync(join(tmpdir(), 'verbatim-glossary-e2e-'));
  const bad = join(folder, 'bad.csv');
  writeFileSync(bad, 'term,kind\nOne,person\nTwo,planet\n');
  await glossary.csvPath.fill(bad);
  await page.getByRole('button', { name: 'Import CSV…' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing was imported' })).toBeVisible();
  await expect(glossary.rows).toHaveCount(1);
  await expect(glossary.list.getByRole('listitem')).toHaveCount(1);

  await shell.goTo('new');
  await expect(page.getByTestId('glossary-summary')).toHaveText('Sends 1 key term and 0 spellings.');
  await expect(page.getByTestId('glossary-not-expressible')).toContainText(`Northwind Ferries: ${reason}`);
});
