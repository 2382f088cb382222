import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, fixtureDir } from './fixtures';
import { ReaderPage } from './pages/reader-page';

const interview = join(fixtureDir, 'interview-ferry-contract.wav');
/** Said by the mayor in the interview (test/fixtures/manifest.json). */
const phone = '555-0142';
const email = 'mayor@porthollow.gov';

/** Selects the transcript's words from the first word reading `from` to the first reading `to`. */
async function selectWords(page: Page, from: string, to: string): Promise<void> {
  await page.evaluate(
    ({ from, to }) => {
      const words = [...document.querySelectorAll<HTMLElement>('[data-w]')];
      const first = words.find((word) => word.textContent === from);
      const last = words.find((word) => word.textContent === to);
      if (!first || !last) throw new Error(`words "${from}" … "${to}" not found`);
      const range = document.createRange();
      range.setStartBefore(first);
      range.setEndAfter(last);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
    },
    { from, to },
  );
}

test('a source’s phone number and email stay hidden in the panels and quotes until the original is shown', async ({
  shell,
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(interview, {
    speaker_labels: true,
    entity_detection: true,
    auto_highlights: true,
    sentiment_analysis: true,
    redact_pii: true,
    redact_pii_policies: ['phone_number', 'email_address'],
    redact_pii_sub: 'entity_name',
    redact_pii_return_unredacted: true,
  });
  const panel = reader.analyses.getByRole('tabpanel');
  const toggle = page.getByRole('checkbox', { name: 'Show unredacted text' });
  await expect(toggle).not.toBeChecked();

  // Redacted view (the default): the panels show what the transcript shows, the redacted
  // entities counted by kind.
  await reader.tab('Entities').click();
  await expect(panel).toContainText('2 redacted: phone number, e-mail');
  await expect(panel).not.toContainText('[PHONE_NUMBER]');
  await expect(panel).toContainText('Elena Alvarez');
  for (const name of ['Entities', 'Key phrases', 'Sentiment']) {
    await reader.tab(name).click();
    await expect(panel).not.toBeEmpty();
    await expect(panel).not.toContainText(phone);
    await expect(panel).not.toContainText(email);
  }

  await reader.word('[PHONE_NUMBER]').scrollIntoViewIfNeeded();
  await selectWords(page, 'call', '[EMAIL_ADDRESS].');
  await page.getByRole('button', { name: 'Copy quote' }).click();
  await expect(reader.notice).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
    /^“call \[PHONE_NUMBER\] or write to \[EMAIL_ADDRESS\]\.” — Speaker B, \[00:01:0\d\]$/,
  );

  // The journalist chooses the original: the panels and the quote show what was said.
  await toggle.check();
  await reader.tab('Entities').click();
  await expect(panel).toContainText(phone);
  await expect(panel).toContainText(email);
  await expect(panel).not.toContainText('[PHONE_NUMBER]');

  await selectWords(page, 'call', `${email}.`);
  await page.getByRole('button', { name: 'Copy quote' }).click();
  await expect
    .poll(() => page.evaluate(() => navigator.clipboard.readText()))
    .toMatch(new RegExp(`^“call ${phone} or write to ${email.replace(/\./g, '\\.')}\\.” — Speaker B`));

  // And back: hidden again.
  await toggle.uncheck();
  await expect(panel).not.toContainText(phone);
  await expect(panel).toContainText('2 redacted: phone number, e-mail');
});

test('redacted names, numbers and addresses are counted by kind in the Entities panel, never listed as hashes or offered to the glossary', async ({
  shell,
  page,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(interview, {
    entity_detection: true,
    redact_pii: true,
    redact_pii_policies: ['person_name', 'phone_number', 'email_address'],
    redact_pii_sub: 'hash',
  });
  await reader.tab('Entities').click();
  const panel = reader.analyses.getByRole('tabpanel');
  // Daniel Reyes, Daniel, Elena Alvarez and Alvarez are four people; one number, one address.
  await expect(panel).toContainText('6 redacted: person ×4, phone number, e-mail');
  await expect(panel).not.toContainText('#');
  // What is not redacted is still listed and still goes to the glossary.
  await expect(panel.getByRole('list', { name: 'Entities' })).toContainText('Northwind Ferries');
  await expect(panel.getByRole('button', { name: 'Add “Northwind Ferries” to the glossary' })).toBeVisible();
  for (const label of await panel.getByRole('button', { name: /to the glossary/ }).all())
    expect(await label.getAttribute('aria-label')).not.toContain('#');
  // No toggle: the service kept no original words to show.
  await expect(page.getByRole('checkbox', { name: 'Show unredacted text' })).toHaveCount(0);
});
