import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, screenshotDir, fixtureDir } from './fixtures';
import { NewTranscriptionPage } from './pages/new-transcription-page';
import { SettingsPage } from './pages/settings-page';

const interview = join(fixtureDir, 'interview-ferry-contract.wav');

interface Job {
  title: string;
  status: string;
  error: string | null;
}

function listJobs(page: Page): Promise<Job[]> {
  return page.evaluate(async () => {
    const bridge = (window as unknown as { api: { transcripts: { list(): Promise<{ value: Job[] }> } } }).api;
    return (await bridge.transcripts.list()).value;
  });
}

test('bad options are refused inline, naming the option, and Transcribe stays disabled', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('new');
  const form = new NewTranscriptionPage(page);
  await form.url.fill('https://media.example.com/briefing.mp3');
  await expect(form.submit).toBeEnabled();

  await form.openGroup('Analyses');
  await form.field('Content safety').check();
  const confidence = form.field('Content safety confidence (25–100)');
  await confidence.fill('20');
  await expect(confidence).toHaveAttribute('aria-invalid', 'true');
  expect(await form.problemOf(confidence)).toContain('content_safety_confidence must be between 25 and 100');
  await expect(form.submit).toBeDisabled();
  await confidence.fill('60');
  await expect(form.submit).toBeEnabled();

  const speakers = form.field('Expected speakers');
  await speakers.fill('0');
  expect(await form.problemOf(speakers)).toContain('speakers_expected must be at least 1');
  await expect(form.submit).toBeDisabled();
  await speakers.fill('');

  const language = form.field('Language code');
  await language.fill('english');
  await expect(language).toHaveAttribute('aria-invalid', 'true');
  expect(await form.problemOf(language)).toContain(
    '"english" is not a language code the service knows. For English use "en".',
  );
  await expect(form.submit).toBeDisabled();
  await language.fill('en');
  await expect(language).toHaveAttribute('aria-invalid', 'false');
  await language.fill('');

  await form.openGroup('Advanced');
  const keyterms = form.field('Key terms');
  await keyterms.fill('Port Hollow\nthe ferry contract that the council signed last spring');
  await expect.poll(() => form.problemOf(keyterms)).toContain('has more than 6 words');
  expect(await form.problemOf(keyterms)).toContain('keyterms_prompt');
  await expect(form.submit).toBeDisabled();
  await keyterms.fill('Port Hollow\nNorthwind Ferries');
  await expect(form.submit).toBeEnabled();

  await form.url.fill('not a link');
  await expect(form.url).toHaveAttribute('aria-invalid', 'true');
  await expect(form.submit).toBeDisabled();
});

test('the groups open from the keyboard, and the file picker is reachable with Tab', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('new');
  const form = new NewTranscriptionPage(page);
  await expect(shell.heading).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(form.fileInput).toBeFocused();

  const privacy = form.form.locator('summary', { hasText: 'Privacy' });
  await privacy.focus();
  await page.keyboard.press('Enter');
  await expect(form.field('Redact personal information')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(form.field('Redact personal information')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(form.form.locator('summary', { hasText: 'Privacy' })).toContainText('1 problem');
  expect(await form.problemOf(form.field('Person names'))).toContain('redact_pii_policies');
  await form.field('Person names').check();
  await expect(form.form.locator('summary', { hasText: 'Privacy' })).not.toContainText('problem');
});

test('the two-person preset fills speaker labels and two speakers; options can be saved as a preset', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('new');
  const form = new NewTranscriptionPage(page);
  await form.preset.selectOption('Two-person interview');
  await expect(form.field('Label speakers')).toBeChecked();
  await expect(form.field('Expected speakers')).toHaveValue('2');

  await form.openGroup('Analyses');
  await form.field('Sentiment').check();
  await page.getByLabel('Save these options as a preset').fill('Court hearing');
  await page.getByRole('button', { name: 'Save preset' }).click();
  await expect(page.getByText('Preset "Court hearing" saved.')).toBeVisible();
  const settings = (await new SettingsPage(page).storedSettings()) as {
    presets: { name: string; options: Record<string, unknown> }[];
  };
  expect(settings.presets.find((preset) => preset.name === 'Court hearing')?.options).toMatchObject({
    speaker_labels: true,
    speakers_expected: 2,
    sentiment_analysis: true,
  });
  await expect(form.preset).toHaveValue('Court hearing');
});

test('a picked recording is submitted, shows in the library at once, and completes', async ({
  shell,
  page,
}) => {
  await shell.open();
  await shell.goTo('new');
  const form = new NewTranscriptionPage(page);
  await form.fileInput.setInputFiles([interview]);
  await expect(form.files).toContainText('interview-ferry-contract.wav');
  await form.preset.selectOption('Two-person interview');
  await form.submit.click();

  await expect(shell.heading).toHaveText('Library');
  await expect(shell.navLink('library')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('main')).toContainText('interview-ferry-contract');
  await expect
    .poll(async () => (await listJobs(page)).map((job) => `${job.title}:${job.status}`), { timeout: 20_000 })
    .toEqual(['interview-ferry-contract:completed']);
});

test('without a key, the service refusal is shown with its message', async ({ shell, page }) => {
  await shell.open();
  await shell.goTo('settings');
  await new SettingsPage(page).removeKey.click();
  await shell.goTo('new');
  const form = new NewTranscriptionPage(page);
  await form.url.fill('https://media.example.com/briefing.mp3');
  await form.submit.click();
  // Refused at once it shows here; accepted and then refused, the job carries the message.
  await expect
    .poll(async () => {
      if (await form.error.isVisible()) return form.error.innerText();
      return (await listJobs(page)).find((job) => job.status === 'error')?.error ?? '';
    })
    .toMatch(/key/i);
});

test('files dropped anywhere in the window open New transcription with them listed', async ({
  shell,
  page,
}) => {
  await shell.open();
  await expect(shell.heading).toHaveText('Library');
  const bytes = [...readFileSync(join(fixtureDir, 'press-statement.wav')).subarray(0, 4096)];
  await page.evaluate((data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'press-statement.wav', { type: 'audio/wav' }));
    const target = document.querySelector('main') ?? document.body;
    target.dispatchEvent(
      new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }),
    );
  }, bytes);
  await expect(page.getByText('Drop recordings to transcribe them')).toBeVisible();
  const prevented = await page.evaluate((data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'press-statement.wav', { type: 'audio/wav' }));
    const target = document.querySelector('main') ?? document.body;
    return !target.dispatchEvent(
      new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
    );
  }, bytes);
  expect(prevented).toBe(true);
  await expect(shell.heading).toHaveText('New transcription');
  const form = new NewTranscriptionPage(page);
  await expect(form.files).toContainText('press-statement.wav');
  await expect(page.getByText('Drop recordings to transcribe them')).toBeHidden();
});

test('new transcription: no serious accessibility violation, and screenshots in both themes', async ({
  shell,
  page,
}) => {
  await shell.open();
  const settings = new SettingsPage(page);
  const form = new NewTranscriptionPage(page);
  for (const theme of ['Light', 'Dark'] as const) {
    await shell.goTo('settings');
    await settings.chooseTheme(theme);
    await shell.goTo('new');
    await form.fileInput.setInputFiles([interview]);
    await page.locator('main').evaluate((main) => main.scrollTo(0, 0));
    await page.screenshot({ path: join(screenshotDir, `new-transcription-${theme.toLowerCase()}.png`) });
    for (const group of ['Analyses', 'Privacy', 'Advanced'] as const) await form.openGroup(group);
    await form.field('Content safety').check();
    await form.field('Content safety confidence (25–100)').fill('20');
    const results = await new AxeBuilder({ page }).include('main').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.screenshot({
      path: join(screenshotDir, `new-transcription-options-${theme.toLowerCase()}.png`),
    });
    await form.field('Content safety confidence (25–100)').fill('');
    await form.field('Content safety').uncheck();
  }
});

test('a refused file says why beside it, in view and to screen readers', async ({ shell, page }) => {
  await page.setViewportSize({ width: 1280, height: 640 });
  await shell.open();
  await shell.goTo('new');
  const form = new NewTranscriptionPage(page);
  await form.fileInput.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Not a recording: these are my notes from the council meeting.\n'.repeat(20)),
  });
  await expect(form.files.getByRole('listitem')).toHaveCount(1);
  await form.submit.click();
  const refused = form.files.getByRole('listitem').filter({ hasText: 'notes.txt' }).getByRole('alert');
  await expect(refused).toContainText('notes.txt');
  await expect(refused).toBeInViewport();
  expect(await listJobs(page)).toEqual([]);
});

test('recordings the OS opens with Verbatim start a New transcription, and a file that is not one says why', async ({
  shell,
  page,
  host,
}) => {
  await shell.open();
  await expect(shell.heading).toHaveText('Library');
  const statement = join(fixtureDir, 'press-statement.wav');
  // What main sends after "Open with Verbatim" (a second instance's arguments, macOS open-file).
  host.services.openRecordings.emit({
    recordings: [{ path: statement, name: 'press-statement.wav', size: readFileSync(statement).length }],
    refused: [{ name: 'notes.mp3', message: 'This file is not a recording Verbatim can read.' }],
  });
  await expect(shell.heading).toHaveText('New transcription');
  const form = new NewTranscriptionPage(page);
  await expect(form.files).toContainText('press-statement.wav');
  await expect(form.error).toContainText('notes.mp3: This file is not a recording Verbatim can read.');
  await form.submit.click();
  await expect(shell.heading).toHaveText('Library');
  await expect
    .poll(async () => (await listJobs(page)).map((job) => `${job.title}:${job.status}`), { timeout: 20_000 })
    .toEqual(['press-statement:completed']);
});
