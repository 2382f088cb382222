import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, fixtureDir, speed } from './fixtures';
import { startWebApp } from '../../src/web-host/start';
import { CorrectionsPage } from './pages/corrections-page';
import { allowHostGoingAway, exited, startHostProcess, stopAll } from './host-process';

/**
 * Never lose a correction (issue #19): words typed in the reader and left for a second are in
 * the library even when the web host is SIGKILLed straight after, with nothing closed
 * properly; a new host on the same data folder shows them, and Undo still takes them back.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

test('typed words left for a second survive a SIGKILL of the web host, and undo still works', async ({
  page,
  emulator,
  allowConsole,
}) => {
  test.setTimeout(90_000);
  // The hosts are closed and killed on purpose, under the page.
  allowHostGoingAway(allowConsole);
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-kill-'));
  const env = { VERBATIM_API_KEY: emulator.options.key, VERBATIM_TRANSCRIPTION_URL: emulator.url };
  const children: ChildProcessWithoutNullStreams[] = [];
  try {
    // The transcript is made fast (the scheduler's clock sped up like the emulator's), then
    // that host is closed and the library opened by separate processes.
    const maker = await startWebApp({
      dataDir,
      apiKey: emulator.options.key,
      transcriptionUrl: emulator.url,
      timeScale: speed,
    });
    await page.goto(maker.openUrl);
    const corrections = new CorrectionsPage(page);
    const id = await corrections.reader.openNewTranscript(interview, { speaker_labels: true });
    await maker.close();

    const first = await startHostProcess(dataDir, env);
    children.push(first.child);
    await page.goto(first.url);
    await corrections.reader.open(id);
    await corrections.selectWordInEditor('Gull');
    await page.keyboard.type('Gall');
    await page.waitForTimeout(1200);
    // Still in the turn: nothing was left, pressed or saved by hand.
    await expect(corrections.editor).toBeFocused();
    first.child.kill('SIGKILL');
    expect(await exited(first.child)).toBe('SIGKILL');

    const second = await startHostProcess(dataDir, env);
    children.push(second.child);
    await page.goto(second.url);
    await corrections.reader.open(id);
    await expect(corrections.reader.word('Gall')).toHaveCount(1);
    await expect(corrections.reader.word('Gull')).toHaveCount(0);
    await expect(corrections.undo).toHaveAccessibleName('Undo: Changed “Gull” to “Gall”');
    await corrections.undo.click();
    await expect(corrections.reader.word('Gull')).toHaveCount(1);
    await expect(corrections.reader.word('Gall')).toHaveCount(0);
  } finally {
    await stopAll(children);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
