import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, fixtureDir, screenshotDir, speed } from './fixtures';
import { startWebApp } from '../../src/web-host/start';
import { ReaderPage } from './pages/reader-page';
import { AskPanel } from './pages/ask-panel';
import { AppShell } from './pages/app-shell';
import { SettingsPage } from './pages/settings-page';
import type { BridgeApi } from '../../src/shared/ipc/api';
import type { AskEntry } from '../../src/shared/ask';

const interview = join(fixtureDir, 'interview-ferry-contract.wav');

test('ask for key quotes: they stream in, a time seeks the audio, and the conversation survives a restart', async ({
  page,
  emulator,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-ask-'));
  const startHost = () =>
    startWebApp({
      dataDir,
      apiKey: emulator.options.key,
      transcriptionUrl: emulator.url,
      gatewayUrl: emulator.url,
      timeScale: speed,
    });
  let host = await startHost();
  const expectNoSeriousAxeProblem = async (): Promise<void> => {
    const axe = await new AxeBuilder({ page }).include('main').analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  };
  try {
    await page.goto(host.openUrl);
    const reader = new ReaderPage(page);
    const id = await reader.openNewTranscript(interview, { speaker_labels: true });

    const ask = new AskPanel(page);
    await ask.open();
    await ask.recordStreaming();
    await ask.readyMade('Key quotes').click();
    await expect(ask.quotes.first()).toBeVisible();
    const streamed = await ask.streamedTexts();
    // The answer was painted piece by piece while it streamed, each piece growing the last.
    expect(streamed.length).toBeGreaterThanOrEqual(2);
    for (let index = 1; index < streamed.length; index++)
      expect(streamed[index]!.startsWith(streamed[index - 1]!)).toBe(true);
    await expect(ask.panel.getByTestId('ask-log').getByText('Key quotes', { exact: true })).toBeVisible();
    await expect(ask.answers.last().getByTestId('ask-answer-meta')).toContainText('tokens');

    const saved = await page.evaluate(async (transcriptId) => {
      const envelope = await (window as unknown as { api: BridgeApi }).api.ask.conversation({ transcriptId });
      if (!envelope.ok) throw new Error(envelope.error.message);
      return envelope.value.entries;
    }, id);
    const answer = saved.at(-1) as Extract<AskEntry, { kind: 'answer' }>;
    const quotes = (answer.structured as { quotes: { quote: string; start_ms: number }[] }).quotes;
    await expect(ask.quotes).toHaveCount(quotes.length);
    const target = quotes.findLast((quote) => quote.start_ms > 1000) ?? quotes[0]!;
    await ask.timeButton(quotes.indexOf(target)).click();
    await expect.poll(() => reader.currentTime()).toBeCloseTo(target.start_ms / 1000, 1);

    await page.screenshot({ path: join(screenshotDir, 'ask-key-quotes.png') });
    await expectNoSeriousAxeProblem();

    // Restart: a new web host on the same data folder still has the conversation.
    await host.close();
    host = await startHost();
    await page.goto(host.openUrl);
    await reader.open(id);
    await ask.open();
    await expect(ask.quotes).toHaveCount(quotes.length);
    await expect(ask.quotes.first()).toContainText(quotes[0]!.quote);

    // The panel in the dark theme.
    await new AppShell(page, host).goTo('settings');
    await new SettingsPage(page).chooseTheme('Dark');
    await reader.open(id);
    await ask.open();
    await expect(ask.quotes).toHaveCount(quotes.length);
    await expectNoSeriousAxeProblem();
    await page.screenshot({ path: join(screenshotDir, 'ask-key-quotes-dark.png') });
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the conversation keeps its newest answer in view, and is cleared only when confirmed', async ({
  page,
  host,
}) => {
  await page.setViewportSize({ width: 1280, height: 640 });
  await page.goto(host.openUrl);
  const reader = new ReaderPage(page);
  const id = await reader.openNewTranscript(interview, { speaker_labels: true });
  const ask = new AskPanel(page);
  await ask.open();

  // Enough answers to overflow the panel: each new one is scrolled into view.
  for (let round = 1; round <= 4; round++) await ask.ask(`What was said about the ferry, part ${round}?`);
  const overflow = await ask.log.evaluate((log) => log.scrollHeight - log.clientHeight);
  expect(overflow).toBeGreaterThan(0);
  await expect.poll(() => ask.distanceFromNewest()).toBeLessThanOrEqual(1);

  // A reader who scrolled up to reread is taken to the answer of their next question.
  await ask.log.evaluate((log) => (log.scrollTop = 0));
  await expect.poll(() => ask.distanceFromNewest()).toBe(overflow);
  await ask.ask('And who signed the contract?');
  await expect.poll(() => ask.distanceFromNewest()).toBeLessThanOrEqual(1);

  // Clear asks first; Cancel (or Escape) keeps everything.
  const dialog = page.getByRole('dialog', { name: 'Clear this conversation?' });
  await ask.clearButton.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(ask.answers).toHaveCount(5);
  await ask.clearButton.click();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(ask.answers).toHaveCount(5);

  // Confirmed, the conversation is gone, also after a reload.
  await ask.clearButton.click();
  await dialog.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(ask.answers).toHaveCount(0);
  await expect(ask.panel.getByRole('status')).toHaveText('Conversation cleared.');
  await page.reload();
  await reader.open(id);
  await ask.open();
  await expect(ask.panel.getByText('Ask anything about this recording')).toBeVisible();
  await expect(ask.answers).toHaveCount(0);
});
