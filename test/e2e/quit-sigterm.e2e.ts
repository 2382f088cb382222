import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecorderStatus, Recording } from '../../src/shared/recording';
import { startWebApp } from '../../src/web-host/start';
import { callBridge } from './pages/bridge';
import { CorrectionsPage } from './pages/corrections-page';
import { allowHostGoingAway, exited, recordingHostEnv, startHostProcess, stopAll } from './host-process';
import { test, expect, fixtureDir, speed } from './fixtures';

/**
 * An orderly quit (issue #34): the web host is sent SIGTERM while it records an interview and
 * a word was typed in the reader a moment before, inside the second autosave waits. The host
 * asks the page to store its typing, finishes the recording's file, and only then exits: the
 * next host finds a whole WAV (not one to repair) and the word stored.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

test('a SIGTERM while recording and typing leaves a whole WAV and the typed word stored', async ({
  page,
  emulator,
  allowConsole,
}) => {
  test.setTimeout(90_000);
  // The hosts are closed on purpose, under the page.
  allowHostGoingAway(allowConsole);
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-quit-'));
  const { env, speech } = recordingHostEnv(dataDir, { key: emulator.options.key, url: emulator.url });
  const children: ChildProcessWithoutNullStreams[] = [];
  try {
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
    await callBridge<RecorderStatus>(page, 'recorder.start', {
      deviceId: null,
      channels: 1,
      sampleRate: 16_000,
    });
    await expect
      .poll(async () => (await callBridge<RecorderStatus>(page, 'recorder.status')).elapsedMs)
      .toBeGreaterThanOrEqual(2_000);
    await corrections.selectWordInEditor('Gull');
    await page.keyboard.type('Gall');
    // Still in the turn, the autosave's second not yet over: only the quit can store it.
    await expect(corrections.editor).toBeFocused();
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBeNull();
    expect(first.child.exitCode).toBe(0);

    const second = await startHostProcess(dataDir, env);
    children.push(second.child);
    await page.goto(second.url);
    await corrections.reader.open(id);
    await expect(corrections.reader.word('Gall')).toHaveCount(1);
    await expect(corrections.reader.word('Gull')).toHaveCount(0);
    // The recording was finished by the quit, not repaired by this start: its header says its sound.
    const [recording] = await callBridge<Recording[]>(page, 'recordings.list');
    expect(recording).toMatchObject({ status: 'finished' });
    const file = readFileSync(recording!.path);
    expect(file.toString('latin1', 0, 4)).toBe('RIFF');
    expect(file.readUInt32LE(4)).toBe(file.length - 8);
    const sound = file.readUInt32LE(40);
    expect(sound).toBe(file.length - 44);
    expect(sound).toBeGreaterThanOrEqual(2 * 32_000);
    expect(sound).toBe((recording!.durationMs / 1000) * 32_000);
    expect(file.subarray(44).equals(speech.subarray(0, sound))).toBe(true);
  } finally {
    await stopAll(children);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
