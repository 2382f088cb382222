import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import { callBridge } from './pages/bridge';
import { CorrectionsPage } from './pages/corrections-page';
import { LibraryPage } from './pages/library-page';

/**
 * The glossary learns from the journalist (issue #21): a name typed over in the reader is
 * offered to a glossary with the misheard form filled in, a detected entity goes in one click,
 * and "Apply glossary" fixes an older transcript as an ordinary correction that Undo takes back.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

test('a correction is added to the glossary from the reader, then applied to an older transcript and undone', async ({
  shell,
  page,
}) => {
  await shell.open();
  const corrections = new CorrectionsPage(page);
  const { reader } = corrections;
  const older = await reader.createTranscript(interview, {});
  expect(await reader.waitForStatus(older)).toBe('completed');
  const newer = await reader.openNewTranscript(interview, { entity_detection: true });

  await corrections.retype('Gull', 'Gall');
  const offers = page.getByRole('list', { name: 'Spellings to keep' });
  await expect(offers).toContainText('You spelled Gall where the service heard “Gull”.');
  await offers.getByRole('button', { name: 'Add to glossary…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to glossary' });
  await expect(dialog.getByLabel('Correct spelling')).toHaveValue('Gall');
  await expect(dialog.getByLabel('Misheard as')).toHaveValue('Gull');
  await expect(dialog.getByLabel('Glossary')).toHaveValue(/\d+/);
  await dialog.getByLabel('Kind').selectOption('place');
  const report = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await dialog.getByRole('button', { name: 'Add to glossary' }).click();
  await expect(dialog).toBeHidden();
  await expect(reader.notice).toHaveText('Added “Gall” to General: new transcriptions will spell it so.');
  await expect(offers).toBeHidden();

  // A person the service detected goes to the glossary in one click.
  await reader.tab('Entities').click();
  await page.getByRole('button', { name: 'Add “Elena Alvarez” to the glossary' }).click();
  await expect(reader.notice).toHaveText('Added “Elena Alvarez” to General.');
  await expect(
    page.getByRole('list', { name: 'Entities' }).getByRole('listitem').filter({ hasText: 'Elena Alvarez' }),
  ).toContainText('in a glossary');

  // The older transcript still says "Gull": Apply glossary proposes it, and applies what is ticked.
  await reader.open(older);
  await expect(corrections.turnWith('Gull')).toBeVisible();
  await reader.chooseMore('Apply glossary…');
  const apply = page.getByRole('dialog', { name: 'Apply glossary' });
  await expect(apply).toContainText('One place has a misheard form.');
  await expect(apply.getByRole('checkbox')).toHaveCount(1);
  await expect(apply.getByRole('checkbox')).toBeChecked();
  await expect(apply).toContainText('between Port Hollow and GullGall Island');
  await apply.getByRole('button', { name: 'Apply 1 fix' }).click();
  await expect(apply).toBeHidden();
  await expect(reader.notice).toHaveText('Fixed 1 spelling from the glossary. Ctrl+Z undoes it.');
  await expect(corrections.turnWith('Gall')).toContainText('Gall Island');
  await expect(corrections.undo).toHaveAccessibleName('Undo: Fixed a spelling from the glossary');
  await corrections.undo.click();
  await expect(corrections.turnWith('Gull')).toContainText('Gull Island');
  expect((await corrections.storedWords(older)).map((word) => word.text)).toContain('Gull');
  expect((await corrections.storedWords(newer)).map((word) => word.text)).toContain('Gall');
});

test('a spelling the glossary has meanwhile gains the misheard form, and the reader says it was there', async ({
  shell,
  page,
}) => {
  await shell.open();
  const corrections = new CorrectionsPage(page);
  await corrections.reader.openNewTranscript(interview, {});
  await corrections.retype('Gull', 'Gall');
  await page
    .getByRole('list', { name: 'Spellings to keep' })
    .getByRole('button', { name: 'Add to glossary…' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Add to glossary' });
  await expect(dialog.getByLabel('Misheard as')).toHaveValue('Gull');
  // Another window adds the spelling while this dialog is open.
  await callBridge(page, 'glossaries.addEntry', { glossaryId: 1, entry: { term: 'Gall', kind: 'place' } });
  await dialog.getByRole('button', { name: 'Add to glossary' }).click();
  await expect(dialog).toBeHidden();
  await expect(corrections.reader.notice).toHaveText(
    'General already had “Gall”; it now also knows it heard as “Gull”.',
  );
  const entries = await callBridge<{ term: string; misheard: string[] }[]>(page, 'glossaries.entries', {
    glossaryId: 1,
  });
  expect(entries.filter((entry) => entry.term === 'Gall')).toMatchObject([{ misheard: ['Gull'] }]);
});

test('Apply glossary on a library selection fixes each transcript, after review', async ({ shell, page }) => {
  await shell.open();
  const library = new LibraryPage(page);
  const first = await library.create(interview);
  const second = await library.create(interview);
  const corrections = new CorrectionsPage(page);
  expect(await corrections.reader.waitForStatus(first.id)).toBe('completed');
  expect(await corrections.reader.waitForStatus(second.id)).toBe('completed');
  await callBridge(page, 'glossaries.addEntry', {
    glossaryId: 1,
    entry: { term: 'Northwynd', misheard: ['Northwind'] },
  });

  await shell.goTo('library');
  await expect(library.rows).toHaveCount(2);
  for (const box of await library.rows.getByRole('checkbox').all()) await box.check();
  await library.bulk.getByRole('button', { name: 'Apply glossary…' }).click();
  const apply = page.getByRole('dialog', { name: 'Apply glossary' });
  // "Northwind" twice in each interview; one is left as it was.
  await expect(apply.getByRole('checkbox')).toHaveCount(4);
  await apply.getByRole('checkbox').first().uncheck();
  await apply.getByRole('button', { name: 'Apply 3 fixes' }).click();
  await expect(apply).toBeHidden();
  await expect(page.getByText('Fixed 3 spellings in 2 transcripts.')).toBeVisible();
  const counts = await Promise.all(
    [first.id, second.id].map(
      async (id) =>
        (await corrections.storedWords(id)).filter((word) => word.text.startsWith('Northwynd')).length,
    ),
  );
  expect(counts.sort()).toEqual([1, 2]);
});

test('Apply glossary never offers a fix where the text already reads the name, in the reader and on a library selection', async ({
  shell,
  page,
}) => {
  await shell.open();
  const library = new LibraryPage(page);
  const first = await library.create(interview);
  const second = await library.create(interview);
  const corrections = new CorrectionsPage(page);
  const { reader } = corrections;
  expect(await reader.waitForStatus(first.id)).toBe('completed');
  expect(await reader.waitForStatus(second.id)).toBe('completed');
  // The interview says "Northwind Ferries" once, and "Northwind" alone once.
  await callBridge(page, 'glossaries.addEntry', {
    glossaryId: 1,
    entry: { term: 'Northwind Ferries', kind: 'organisation', misheard: ['Northwind'] },
  });

  await reader.open(first.id);
  await reader.chooseMore('Apply glossary…');
  const apply = page.getByRole('dialog', { name: 'Apply glossary' });
  await expect(apply).toContainText('One place has a misheard form.');
  await expect(apply.getByRole('checkbox')).toHaveCount(1);
  await expect(apply).toContainText('Well, NorthwindNorthwind Ferries offered');
  await apply.getByRole('button', { name: 'Apply 1 fix' }).click();
  await expect(apply).toBeHidden();
  await expect(reader.turns.filter({ hasText: 'Well, Northwind Ferries offered' })).toHaveCount(1);
  await expect(reader.turns.filter({ hasText: 'awarded Northwind Ferries a deal' })).toHaveCount(1);
  await expect(reader.turns.filter({ hasText: 'Ferries Ferries' })).toHaveCount(0);

  // The fixed transcript has nothing left to fix; the other has its one place.
  await shell.goTo('library');
  await expect(library.rows).toHaveCount(2);
  for (const box of await library.rows.getByRole('checkbox').all()) await box.check();
  await library.bulk.getByRole('button', { name: 'Apply glossary…' }).click();
  await expect(apply.getByRole('checkbox')).toHaveCount(1);
  await apply.getByRole('button', { name: 'Apply 1 fix' }).click();
  await expect(apply).toBeHidden();
  await expect(page.getByText('Fixed 1 spelling in 1 transcript.')).toBeVisible();
  for (const id of [first.id, second.id]) {
    const text = (await corrections.storedWords(id)).map((word) => word.text).join(' ');
    expect(text).toContain('awarded Northwind Ferries a deal');
    expect(text).toContain('Well, Northwind Ferries offered');
    expect(text).not.toMatch(/Ferries Ferries/);
  }
});
