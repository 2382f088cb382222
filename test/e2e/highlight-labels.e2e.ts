import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import { ReaderHighlights } from './pages/highlights-page';

/**
 * Highlight labels are the journalist's (issue #20: "a small set the journalist can rename"):
 * renamed and recoloured in Settings with the keyboard, a name already taken refused in plain
 * words, and the reader's highlights use the new name and colour.
 */
const statement = join(fixtureDir, 'press-statement.wav');

test('renames and recolours a label in Settings, refuses a name taken, and the reader uses them', async ({
  shell,
  page,
}) => {
  test.setTimeout(90_000);
  await shell.open();
  const highlights = new ReaderHighlights(page);
  await highlights.reader.openNewTranscript(statement, {});
  await highlights.selectFrom('first', 2);
  await highlights.highlight('Check', 'Confirm the date');
  await expect(highlights.reader.word('first')).toHaveAttribute('data-highlight', 'red');

  await shell.goTo('settings');
  const section = page.getByRole('group', { name: 'Highlight labels' });
  const name = section.getByLabel('Name of the “Check” label');
  await name.fill('Verify');
  await name.press('Enter');
  await expect(section.getByLabel('Name of the “Verify” label')).toHaveValue('Verify');
  // The colour by keyboard: focus the chosen colour, then the arrow keys move and choose.
  const colours = section.getByRole('radiogroup', { name: 'Colour of the “Verify” label' });
  await colours.getByRole('radio', { name: 'red' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(colours.getByRole('radio', { name: 'green' })).toBeChecked();

  const quote = section.getByLabel('Name of the “Quote” label');
  await quote.fill('verify');
  await quote.press('Enter');
  await expect(section.getByRole('alert')).toContainText('There is already a label called “verify”.');
  await quote.press('Escape');
  await expect(quote).toHaveValue('Quote');
  const report = await new AxeBuilder({ page }).include('main').analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  await page.goBack();
  await expect(highlights.reader.word('first')).toHaveAttribute('data-highlight', 'green');
  await highlights.tab.click();
  await expect(highlights.items.first()).toContainText('Verify');
});
