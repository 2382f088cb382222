import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebApp } from '../harness/start';
import { spokenPcm } from '../fixtures/spoken-pcm';
import { test, expect, speed } from './fixtures';

/**
 * The Assistant window in the web host: its "microphone" is a spoken fixture (raw PCM), the
 * agent is the emulator's, and the page shows what was heard, the tool the agent used and
 * what it answered.
 */
/** Two seconds of the spoken fixture, then silence so the agent hears the turn end. */
function speechFixture(): Buffer {
  return Buffer.concat([spokenPcm(2), Buffer.alloc(24_000 * 2 * 1.5)]);
}

async function seriousViolations(page: Page): Promise<string[]> {
  const report = await new AxeBuilder({ page }).include('main').analyze();
  return report.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

test('the assistant window hears a question, calls a tool and answers', async ({ page, emulator }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-voice-'));
  const host = await startWebApp({
    dataDir,
    apiKey: emulator.options.key,
    transcriptionUrl: emulator.url,
    voiceUrl: emulator.url,
    timeScale: speed,
    voiceInput: speechFixture(),
    voiceInputSpeed: 4,
  });
  try {
    // What the emulated agent "hears" in the fixture's speech.
    const queued = await fetch(`${emulator.url}/__admin/voice/next-utterance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'search for the ferry contract 5' }),
    });
    expect(queued.ok).toBe(true);

    await page.goto(`${host.openUrl}&window=assistant`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText('Assistant');
    // Alone in its window: no app navigation, no "open a window" button.
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await expect(main.getByRole('button', { name: 'Open in a small window' })).toHaveCount(0);
    const state = main.getByRole('status');
    await expect(state).toHaveText('Off');
    expect(await seriousViolations(page)).toEqual([]);

    await main.getByRole('button', { name: 'Start' }).click();
    const log = main.getByRole('log', { name: 'Conversation' });
    await expect(
      log.getByRole('listitem').filter({ hasText: 'Hello. What are you looking for?' }),
    ).toBeVisible();
    await expect(
      log
        .getByRole('listitem')
        .filter({ hasText: 'You' })
        .filter({ hasText: 'search for the ferry contract 5' }),
    ).toBeVisible();
    await expect(log.getByRole('listitem').filter({ hasText: 'search library — done' })).toBeVisible();
    await expect(log.getByRole('listitem').filter({ hasText: /search library says:/ })).toBeVisible();
    await expect(state).toHaveText('Listening');
    expect(await seriousViolations(page)).toEqual([]);

    const mute = main.getByRole('button', { name: 'Mute microphone' });
    await mute.click();
    await expect(main.getByRole('button', { name: 'Unmute microphone' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(state).toHaveText('Listening · microphone muted');

    await main.getByRole('radio', { name: 'Push to talk' }).check();
    await expect(main.getByRole('button', { name: 'Hold to talk' })).toBeEnabled();

    await main.getByRole('button', { name: 'Stop' }).click();
    await expect(state).toHaveText('Off');
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the Assistant view in the app offers its own window', async ({ shell, page }) => {
  await shell.open();
  await shell.goTo('assistant');
  await expect(shell.heading).toHaveText('Assistant');
  await page.getByRole('button', { name: 'Open in a small window' }).click();
  // The web host has no windows to open; the view stays usable and says nothing went wrong.
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});
