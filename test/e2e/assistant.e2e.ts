import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebApp } from '../../src/web-host/start';
import { spokenPcm } from '../fixtures/spoken-pcm';
import { rawFileAudio } from '../../src/main/core/voice/raw-file-audio';
import { AudioBackend } from '../../src/main/audio/audio-backend';
import { nativeAssistantAudioOf, type Naudiodon } from '../../src/main/audio/native-audio';
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

test('the assistant says why it cannot start on a computer whose sound cannot be used', async ({
  page,
  emulator,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-no-audio-'));
  // The desktop app's own PortAudio devices, over a naudiodon that fails to load as one built
  // for another Electron does.
  const backend = new AudioBackend<Naudiodon>(
    () => {
      throw new Error(
        "The module '/Applications/Verbatim.app/naudiodon.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 139.",
      );
    },
    () => undefined,
  );
  const host = await startWebApp({
    dataDir,
    apiKey: emulator.options.key,
    voiceUrl: emulator.url,
    voiceAudio: nativeAssistantAudioOf(backend),
  });
  try {
    await page.goto(`${host.openUrl}&window=assistant`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText('Assistant');
    const reason = main.getByText('Verbatim cannot use the microphone or speaker on this computer');
    await expect(reason).toHaveText(
      'Verbatim cannot use the microphone or speaker on this computer: its sound component was built for a different version of the app. Everything else works; only the spoken assistant needs them. Reinstalling Verbatim should fix this.',
    );
    const start = main.getByRole('button', { name: 'Start' });
    await expect(start).toBeDisabled();
    await expect(start).toHaveAccessibleDescription(/cannot use the microphone or speaker/);
    await expect(main.getByRole('combobox', { name: 'Microphone' })).toBeDisabled();
    await expect(main.getByRole('status')).toHaveText('Off');
    // Said as a fact of this computer, not as an error of something the journalist did.
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a microphone the OS refused is said with the way to allow it', async ({ page, emulator }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-mic-refused-'));
  const host = await startWebApp({
    dataDir,
    apiKey: emulator.options.key,
    voiceUrl: emulator.url,
    // What macOS answers when Verbatim is switched off under Privacy & Security.
    voiceAudio: {
      ...rawFileAudio({ input: speechFixture(), outputPath: join(dataDir, 'out.raw') }),
      microphoneAccess: () => Promise.resolve('denied'),
    },
  });
  try {
    await page.goto(`${host.openUrl}&window=assistant`);
    const main = page.getByRole('main');
    await main.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'System Settings → Privacy & Security → Microphone, then turn on Verbatim',
    );
    await expect(main.getByRole('status')).toHaveText('Off');
    await expect(main.getByRole('button', { name: 'Start' })).toBeEnabled();
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
