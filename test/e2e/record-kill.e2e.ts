import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecorderStatus, Recording } from '../../src/shared/recording';
import { callBridge } from './pages/bridge';
import { RecordPage } from './pages/record-page';
import { allowHostGoingAway, exited, recordingHostEnv, startHostProcess, stopAll } from './host-process';
import { test, expect } from './fixtures';

/**
 * Lose nothing (issue #23): the web host recording in real time from its raw PCM input
 * (VERBATIM_RECORD_INPUT) is SIGKILLed mid-interview; a new host on the same data folder
 * repairs the WAV and offers it, holding the input's sound up to at most a second before the
 * kill.
 */
test('a recording survives a SIGKILL of the app, repaired and offered at the next start', async ({
  page,
  emulator,
  allowConsole,
}) => {
  test.setTimeout(90_000);
  // The hosts are closed and killed on purpose, under the page.
  allowHostGoingAway(allowConsole);
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-record-kill-'));
  const { env, speech } = recordingHostEnv(dataDir, { key: emulator.options.key, url: emulator.url });
  const children: ChildProcessWithoutNullStreams[] = [];
  try {
    const first = await startHostProcess(dataDir, env);
    children.push(first.child);
    await page.goto(first.url);
    const record = new RecordPage(page);
    await record.open();
    await record.button('Record').click();
    await record.waitForElapsed(3);
    const before = await callBridge<RecorderStatus>(page, 'recorder.status');
    first.child.kill('SIGKILL');
    expect(await exited(first.child)).toBe('SIGKILL');

    const second = await startHostProcess(dataDir, env);
    children.push(second.child);
    await page.goto(second.url);
    await record.open();
    const [recording] = await callBridge<Recording[]>(page, 'recordings.list');
    expect(recording).toMatchObject({ status: 'recovered' });
    expect(recording!.durationMs).toBeGreaterThanOrEqual(before.elapsedMs - 1000);
    const name = recording!.path.split('/').pop()!;
    await expect(record.main.getByRole('region', { name: `Transcribe ${name}` })).toContainText(
      `Recovered after a crash: ${name}`,
    );
    // The repaired file is a WAV of the input's very sound, in order.
    const file = readFileSync(recording!.path);
    const sound = file.readUInt32LE(40);
    expect(sound).toBe(file.length - 44);
    expect(sound).toBe((recording!.durationMs / 1000) * 32_000);
    expect(file.subarray(44).equals(speech.subarray(0, sound))).toBe(true);
  } finally {
    await stopAll(children);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
