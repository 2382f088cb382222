import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, screenshotDir } from './fixtures';
import { SettingsPage } from './pages/settings-page';

/** Every value the page holds: its markup and what each field contains. */
async function everythingInPage(page: Page): Promise<string> {
  const values = await page.evaluate(() =>
    [...document.querySelectorAll('input, textarea, select')].map(
      (element) => (element as HTMLInputElement).value,
    ),
  );
  return `${await page.content()}\n${values.join('\n')}`;
}

test('a key entered is stored, shown only as "A key is set", and never appears in the page', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('settings');
  const settings = new SettingsPage(page);
  const secret = 'sk-very-secret-0123456789';

  await settings.enterKey(secret);
  await expect(settings.keyState).toHaveText('A key is set.');
  await expect(settings.keyInput).toHaveValue('');
  expect(await everythingInPage(page)).not.toContain(secret);

  await page.reload();
  await expect(settings.keyState).toHaveText('A key is set.');
  expect(await everythingInPage(page)).not.toContain(secret);

  await settings.removeKey.click();
  await expect(settings.keyState).toHaveText('No key is set yet.');
  await settings.testConnection.click();
  await expect(settings.connectionResult).toContainText('No transcription key is set');
});

test('test connection succeeds with the emulator key, and reports the service message with a wrong one', async ({
  shell,
  page,
  emulator,
}) => {
  await shell.open();
  await shell.goTo('settings');
  const settings = new SettingsPage(page);
  await expect(settings.keyState).toHaveText('A key is set.');

  await settings.testConnection.click();
  await expect(settings.connectionResult).toContainText('Your key works');

  await settings.enterKey('not-the-right-key');
  await settings.testConnection.click();
  // Verbatim's explanation, then the service's own words.
  await expect(settings.connectionResult).toContainText('did not accept your API key');
  await expect(settings.connectionResult).toContainText('It said:');
  await expect(settings.connectionResult).not.toContainText('Your key works');

  await settings.enterKey(emulator.options.key);
  await settings.testConnection.click();
  await expect(settings.connectionResult).toContainText('Your key works');
});

test('Settings says which address each service is reached at, and Test connection names what answered', async ({
  shell,
  page,
  emulator,
}) => {
  // This web host was started with the emulator as its transcription service and gateway, as the demo is.
  await shell.open();
  await shell.goTo('settings');
  const settings = new SettingsPage(page);
  const startedWith = (variable: string): string =>
    `In use: ${emulator.url}, the address Verbatim was started with (${variable}). This field applies when Verbatim starts without it.`;
  for (const region of ['us', 'eu'] as const) {
    await expect(settings.urlOverride(region)).toHaveAccessibleDescription(
      startedWith('VERBATIM_TRANSCRIPTION_URL'),
    );
  }
  await expect(page.getByLabel('Language-model gateway address override')).toHaveAccessibleDescription(
    startedWith('VERBATIM_GATEWAY_URL'),
  );
  // A service Verbatim was not started with: empty means its own address, named.
  await expect(page.getByLabel('Catalog address override')).toHaveAttribute(
    'placeholder',
    'Empty: https://openrouter.ai/api/v1 (https://eu.openrouter.ai/api/v1 for the EU catalog)',
  );
  await expect(settings.urlOverride('us')).toHaveAttribute(
    'placeholder',
    'Empty: https://api.assemblyai.com',
  );

  await settings.testConnection.click();
  await expect(settings.connectionResult).toHaveText(
    `Connected to the transcription service at ${emulator.url} (US region). Your key works.`,
  );
  await settings.regionOption('eu').check();
  await settings.testConnection.click();
  await expect(settings.connectionResult).toHaveText(
    `Connected to the transcription service at ${emulator.url} (EU region). Your key works.`,
  );
});

test('region and address overrides survive a reload; an invalid address is refused inline; a new server gets the key only when confirmed', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('settings');
  const settings = new SettingsPage(page);

  await settings.regionOption('eu').check();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();

  await settings.urlOverride('us').fill('not an address');
  await expect(settings.urlOverride('us')).toHaveAttribute('aria-invalid', 'true');
  expect(await settings.problemOf(settings.urlOverride('us'))).toContain('Enter a full web address');
  await settings.urlOverride('us').press('Tab');

  // A key is stored: a new server gets it only once the journalist says so.
  const question = page.getByTestId('url-eu-key-question');
  await settings.setUrlOverride('eu', 'https://transcripts.example.eu/');
  await expect(question).toContainText(
    'Verbatim would send your transcription key to https://transcripts.example.eu. Use this address only if you trust that server.',
  );
  await question.getByRole('button', { name: 'Keep the old address' }).click();
  await expect(question).toHaveCount(0);
  await expect(settings.urlOverride('eu')).toHaveValue('');
  expect(await settings.storedSettings()).toMatchObject({ transcriptionUrlEu: '' });

  await settings.setUrlOverride('eu', 'https://transcripts.example.eu/');
  await question.getByRole('button', { name: 'Use this address and send my key' }).click();
  await expect(question).toHaveCount(0);
  await expect
    .poll(() => settings.storedSettings())
    .toMatchObject({
      region: 'eu',
      transcriptionUrlEu: 'https://transcripts.example.eu/',
      transcriptionUrlUs: '',
    });

  await page.reload();
  await expect(shell.heading).toHaveText('Settings');
  await expect(settings.regionOption('eu')).toBeChecked();
  await expect(settings.urlOverride('eu')).toHaveValue('https://transcripts.example.eu/');
  await expect(settings.urlOverride('us')).toHaveValue('');
});

test('default options are edited with the options form and checked inline', async ({ shell, page }) => {
  await shell.open();
  await shell.goTo('settings');
  const settings = new SettingsPage(page);
  const speakers = page.getByLabel('Expected speakers');
  await speakers.fill('0');
  const save = page.getByRole('button', { name: 'Save default options' });
  await expect(save).toBeDisabled();
  await expect(page.getByText('speakers_expected must be at least 1')).toBeVisible();
  await speakers.fill('3');
  await save.click();
  await expect(page.getByText('Default options saved.')).toBeVisible();
  await expect
    .poll(() => settings.storedSettings())
    .toMatchObject({ defaultOptions: { speaker_labels: true, speakers_expected: 3 } });
});

test('settings: no serious accessibility violation, and screenshots in both themes', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('settings');
  const settings = new SettingsPage(page);
  for (const theme of ['Light', 'Dark'] as const) {
    await settings.chooseTheme(theme);
    await expect(settings.keyState).toHaveText('A key is set.');
    const results = await new AxeBuilder({ page }).include('main').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.screenshot({
      path: join(screenshotDir, `settings-${theme.toLowerCase()}.png`),
      fullPage: true,
    });
  }
});

test('the data folder is shown and the library can be moved to another one', async ({ shell, page }) => {
  await shell.open();
  await shell.goTo('settings');
  await expect(page.getByTestId('data-folder')).toHaveText(/verbatim-e2e-/);
  const target = page.getByLabel(/Move the library to another folder/);
  const occupied = mkdtempSync(join(tmpdir(), 'verbatim-occupied-'));
  writeFileSync(join(occupied, 'notes.txt'), 'mine');
  await target.fill(occupied);
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('not empty');

  const destination = join(mkdtempSync(join(tmpdir(), 'verbatim-moved-')), 'library');
  await target.fill(destination);
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'copied to' })).toContainText(destination);
  expect(existsSync(join(destination, 'library.sqlite'))).toBe(true);
  // The web host cannot restart itself, and says so.
  await page.getByRole('button', { name: 'Restart now' }).click();
  await expect(page.getByRole('alert')).toContainText('Restart Verbatim yourself');
});
