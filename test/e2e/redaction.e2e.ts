import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { BridgeApi } from '../../src/shared/ipc/api';
import { decodeAudio } from '../emulator/speech/wav-decode';
import { test, expect, fixtureDir } from './fixtures';
import { StoriesPage } from './pages/highlights-page';
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
  // The reader's player asks for the recording as the words read: redacted.
  const player = page.getByRole('group', { name: 'Recording' }).locator('audio');
  await expect(player).toHaveAttribute('src', /\/__verbatim\/media\/[^?]+\?token=[^&]+$/);

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

  // The journalist chooses the original: the panels, the quote and the player give what was said.
  await toggle.check();
  await expect(player).toHaveAttribute('src', /&audio=original$/);
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

/** Where a transcript's words show the service's marks ("[PHONE_NUMBER]"), as the reader is sent them. */
async function redactedSpans(page: Page, id: string): Promise<{ start: number; end: number }[]> {
  return page.evaluate(async (id) => {
    const envelope = await (window as unknown as { api: BridgeApi }).api.transcripts.get({ id });
    if (!envelope.ok) throw new Error(envelope.error.message);
    return envelope.value.sentences
      .flatMap((sentence) => sentence.words)
      .filter((word) => /\[[A-Z_]+\]/.test(word.text))
      .map((word) => ({ start: word.start, end: word.end }));
  }, id);
}

test('a story of a redacted quote is played redacted: silent over the redacted words, or the service’s own redacted recording', async ({
  shell,
  page,
  host,
  emulator,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  const redacted = {
    redact_pii: true,
    redact_pii_policies: ['phone_number', 'email_address'],
    redact_pii_sub: 'entity_name',
  };
  const silenced = await reader.createTranscript(interview, redacted);
  const beeped = await reader.createTranscript(interview, { ...redacted, redact_pii_audio: true });
  expect(await reader.waitForStatus(silenced)).toBe('completed');
  expect(await reader.waitForStatus(beeped)).toBe('completed');
  const stories = new StoriesPage(page);
  await stories.createStoryQuoting('Who to call', [
    { transcriptId: silenced, containing: '[PHONE_NUMBER]' },
    { transcriptId: beeped, containing: '[PHONE_NUMBER]' },
  ]);

  // Play the story as the reporter does, and note every recording the page asks for.
  const asked = new Map<string, string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/__verbatim/media/'))
      asked.set(decodeURIComponent(url.pathname.split('/').pop() ?? ''), request.url());
  });
  await shell.goTo('stories');
  await stories.open('Who to call');
  await expect(stories.items.nth(0)).toContainText('[PHONE_NUMBER]');
  await stories.play.click();
  await expect(page.getByRole('status').filter({ hasText: 'Quote 1 of 2' })).toBeVisible();
  await expect.poll(() => asked.has(silenced)).toBe(true);
  await page.getByRole('button', { name: 'Next quote' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Quote 2 of 2' })).toBeVisible();
  await expect.poll(() => asked.has(beeped)).toBe(true);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();

  // What those addresses serve. The first: the interview, silent over the number and the address.
  const serve = async (id: string): Promise<Buffer> => {
    const url = asked.get(id) ?? '';
    expect(url).not.toContain('audio=original');
    const response = await fetch(new URL(new URL(url).pathname + new URL(url).search, host.url));
    expect(response.ok).toBe(true);
    return Buffer.from(await response.arrayBuffer());
  };
  const original = decodeAudio(readFileSync(interview));
  const rate = original.sampleRate;
  const spans = await redactedSpans(page, silenced);
  expect(spans).toHaveLength(2);
  const heard = decodeAudio(await serve(silenced)).channels[0]!;
  const recorded = original.channels[0]!;
  expect(heard.length).toBe(recorded.length);
  const wrong: number[] = [];
  for (let frame = 0; frame < heard.length && wrong.length < 3; frame++) {
    const inside = spans.some(
      (span) => frame * 1000 < span.end * rate && (frame + 1) * 1000 > span.start * rate,
    );
    if (inside ? heard[frame] !== 0 : heard[frame] !== recorded[frame]) wrong.push(frame);
  }
  expect(wrong).toEqual([]);

  // The second: byte for byte the redacted recording the service made, never the original.
  const remoteId = (await host.services.core.library.get(beeped))?.remoteId ?? '';
  const answer = await fetch(`${emulator.url}/v2/transcript/${remoteId}/redacted-audio`, {
    headers: { Authorization: emulator.options.key },
  });
  const { redacted_audio_url: redactedUrl } = (await answer.json()) as { redacted_audio_url: string };
  const fromService = Buffer.from(await (await fetch(redactedUrl)).arrayBuffer());
  const served = await serve(beeped);
  expect(served.equals(fromService)).toBe(true);
  expect(served.equals(readFileSync(interview))).toBe(false);
});
