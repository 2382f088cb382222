import AxeBuilder from '@axe-core/playwright';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Highlight } from '../../src/shared/highlights';
import type { RecorderStatus, Recording } from '../../src/shared/recording';
import { startWebApp } from '../../src/web-host/start';
import { openDatabase } from '../../src/main/core/library/database';
import { pcm16WavHeader } from '../../src/main/core/media/wav-header';
import { Recordings } from '../../src/main/core/library/recordings';
import { diskTimeLeft } from '../../src/renderer/src/stores/level-history';
import { clock } from '../../src/renderer/src/stores/recorder-logic';
import { spokenPcm } from '../fixtures/spoken-pcm';
import { callBridge } from './pages/bridge';
import { RecordPage } from './pages/record-page';
import { test, expect, speed } from './fixtures';

/**
 * Recording an interview in the web host (issue #23): its "microphone" is the spoken press
 * statement as raw PCM (16 kHz, played 4 times faster than real time, then silence), its
 * transcription the emulator's. Start, mark a moment with the M key and give it a word, pause,
 * stop, transcribe now with a preset, listen before the transcript is in, and find the mark a
 * highlight once it is.
 */
test('records an interview, marks a moment, and transcribes it with the mark as a highlight', async ({
  page,
  emulator,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-record-'));
  const speech = spokenPcm(9, 16_000);
  const host = await startWebApp({
    dataDir,
    apiKey: emulator.options.key,
    transcriptionUrl: emulator.url,
    voiceUrl: emulator.url,
    timeScale: speed,
    recordInput: speech,
    recordInputRate: 16_000,
    recordInputSpeed: 4,
    // The assistant has its own "microphone" too: one capture at a time is the app's rule.
    voiceInput: spokenPcm(1),
  });
  try {
    await page.goto(host.openUrl);
    const record = new RecordPage(page);
    await record.open();
    await expect(record.main.getByRole('combobox', { name: 'Microphone' })).toHaveText(
      'Recording (raw PCM file) (system default)',
    );
    await expect(record.main.getByRole('combobox', { name: 'Quality' })).toHaveText('16 kHz');
    await record.expectState('Ready');
    // The disk time left, at 16 kHz mono PCM16 from the free space main reports.
    const { freeBytes } = await callBridge<{ freeBytes: number }>(page, 'recorder.freeSpace');
    await expect(record.diskLeft).toHaveText(diskTimeLeft(freeBytes, { sampleRate: 16_000, channels: 1 }));
    await expect(record.diskLeft).toHaveText(/^About [\d,]+ h of disk left$/);

    await record.button('Record').click();
    await record.expectState('Recording');
    // The input's name, large enough to check at a glance.
    await expect(record.recorder.getByText('Recording (raw PCM file)', { exact: true })).toBeVisible();
    // The meter follows the voice, and the waveform draws it.
    await expect.poll(async () => (await record.meter()).level, { timeout: 10_000 }).toBeGreaterThan(0.05);
    await expect.poll(() => record.drawnBars(), { timeout: 10_000 }).toBeGreaterThan(5);
    // The assistant cannot take the microphone meanwhile, and says who has it.
    await expect(callBridge(page, 'voice.start')).rejects.toThrow(/The recorder is using the microphone/);

    await record.waitForElapsed(2);
    await page.keyboard.press('m');
    const note = record.main.getByRole('textbox', { name: /^Word for the moment at 0:0\d$/ });
    await expect(note).toBeVisible();
    const [mark] = (await callBridge<RecorderStatus>(page, 'recorder.status')).marks;
    expect(mark!.atMs).toBeGreaterThanOrEqual(2000);
    // The mark is on the timeline as it is made, at its time.
    const flag = record.timeline.getByRole('listitem');
    await expect(flag).toHaveText(`Mark at ${clock(mark!.atMs)}`);
    await expect(flag).toHaveAttribute('data-at-ms', String(mark!.atMs));
    expect((await new AxeBuilder({ page }).include('main').analyze()).violations).toEqual([]);
    await note.fill('ferry');
    await note.press('Enter');

    await record.button('Pause').click();
    await record.expectState('Paused');
    const paused = await record.elapsedSeconds();
    await page.waitForTimeout(600);
    expect(await record.elapsedSeconds()).toBe(paused);
    await record.button('Resume').click();
    await record.waitForElapsed(6);
    await record.button('Stop').click();
    await record.expectState('Stopped');
    // The timeline is the whole recording now: the mark stands at its share of it.
    const stopped = await callBridge<RecorderStatus>(page, 'recorder.status');
    expect(await record.markPosition(flag)).toBeCloseTo(mark!.atMs / stopped.elapsedMs, 1);
    // The last 30 s stay drawn once stopped.
    expect(await record.drawnBars()).toBeGreaterThan(5);

    const [recording] = await callBridge<Recording[]>(page, 'recordings.list');
    expect(recording).toMatchObject({ status: 'finished', sampleRate: 16_000, channels: 1 });
    // What was written is what the input played, up to the pause, and a real WAV.
    const file = readFileSync(recording!.path);
    expect(file.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(file.readUInt32LE(40)).toBe(file.length - 44);
    expect(file.subarray(44, 44 + 32_000).equals(speech.subarray(0, 32_000))).toBe(true);
    await expect(note).toHaveValue('ferry');

    const offer = record.main.getByRole('group', { name: 'Transcribe now as' });
    await expect(offer.getByRole('button')).toHaveText([
      'Two-person interview',
      'Press conference',
      'Phone call',
    ]);
    await offer.getByRole('button', { name: 'Two-person interview' }).click();
    await record.main.getByRole('button', { name: 'Open it' }).click();

    // The recording plays in the reader before its transcript exists.
    const audio = page.locator('audio');
    await expect
      .poll(() => audio.evaluate((element: HTMLAudioElement) => element.duration), { timeout: 10_000 })
      .toBeGreaterThan(5);

    // Once transcribed, the mark is a highlight on what was said then, with its word.
    const transcriptId = (await callBridge<Recording[]>(page, 'recordings.list'))[0]!.transcriptId!;
    await expect
      .poll(
        async () =>
          (await callBridge<Highlight[]>(page, 'highlights.list', { transcriptId })).map((highlight) => ({
            note: highlight.note,
            // The sentence spoken then, or the one that had just ended.
            around: highlight.startMs <= mark!.atMs && highlight.endMs >= mark!.atMs - 10_000,
          })),
        { timeout: 30_000 },
      )
      .toEqual([{ note: 'ferry', around: true }]);
    // And the reader shows it, with the word typed while recording.
    await page.getByRole('group', { name: 'Side panel' }).getByRole('button', { name: 'Highlights' }).click();
    await expect(page.getByRole('complementary', { name: 'Highlights' }).getByRole('listitem')).toContainText(
      'ferry',
    );
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('says when nothing is heard, and keeps everything when the input is unplugged mid-recording', async ({
  page,
  emulator,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-record-'));
  // A second of speech, then 20 s of silence, then the device goes away.
  const sound = Buffer.concat([spokenPcm(1, 16_000), Buffer.alloc(20 * 32_000)]);
  const host = await startWebApp({
    dataDir,
    apiKey: emulator.options.key,
    transcriptionUrl: emulator.url,
    timeScale: speed,
    recordInput: sound,
    recordInputRate: 16_000,
    recordInputSpeed: 4,
    recordInputUnplugged: true,
  });
  try {
    await page.goto(host.openUrl);
    const record = new RecordPage(page);
    await record.open();
    await record.button('Record').click();
    // The second of speech has gone by and the input is silent, yet the peak it reached holds,
    // then falls.
    await expect
      .poll(
        async () => {
          const { level, peak } = await record.meter();
          return level < 0.003 && peak > 0.05;
        },
        { intervals: [50], timeout: 10_000 },
      )
      .toBe(true);
    await expect.poll(async () => (await record.meter()).peak, { timeout: 10_000 }).toBeLessThan(0.003);
    await expect(record.main.getByRole('listitem').filter({ hasText: 'Nothing heard for' })).toContainText(
      'Is the microphone on and the right input chosen?',
      { timeout: 15_000 },
    );
    await expect(record.main.getByRole('alert')).toHaveText(
      'Recording (raw PCM file) stopped (the device was disconnected). The recording stopped; everything before it is kept.',
      { timeout: 15_000 },
    );
    await record.expectState('Stopped');
    const [recording] = await callBridge<Recording[]>(page, 'recordings.list');
    expect(recording).toMatchObject({ status: 'finished', durationMs: 21_000 });
    expect(readFileSync(recording!.path).readUInt32LE(40)).toBe(sound.length);
    await expect(record.main.getByRole('group', { name: 'Transcribe now as' })).toBeVisible();
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('offers a recording a crash cut short, repaired, to transcribe', async ({ page, emulator }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-record-'));
  // What a SIGKILL leaves: a row still `recording` by a process that is gone, and a WAV whose
  // header never got its sizes (crash-safe-wav.test.ts kills real writers; here the app's start is the subject).
  const deadPid = spawnSync('true').pid;
  const path = join(dataDir, 'recordings', '2026-11-25 09-00-00.wav');
  mkdirSync(join(dataDir, 'recordings'));
  writeFileSync(
    path,
    Buffer.concat([pcm16WavHeader({ sampleRate: 16_000, channels: 1 }, 0), spokenPcm(3, 16_000)]),
  );
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  await new Recordings(db).start(path, { sampleRate: 16_000, channels: 1 }, deadPid);
  db.close();

  const host = await startWebApp({
    dataDir,
    apiKey: emulator.options.key,
    transcriptionUrl: emulator.url,
    timeScale: speed,
  });
  try {
    await page.goto(host.openUrl);
    const record = new RecordPage(page);
    await record.open();
    const offer = record.main.getByRole('region', { name: 'Transcribe 2026-11-25 09-00-00.wav' });
    await expect(offer).toContainText('Recovered after a crash: 2026-11-25 09-00-00.wav, 0:03.');
    // Nothing can be recorded in this host (no input): said, and Record is off.
    await expect(record.button('Record')).toBeDisabled();
    await record.expectState('Ready');
    await offer.getByRole('button', { name: 'Phone call' }).click();
    await expect(offer.getByRole('status')).toContainText('Sent to be transcribed.');
    expect(readFileSync(path).readUInt32LE(40)).toBe(3 * 32_000);
    const [recording] = await callBridge<Recording[]>(page, 'recordings.list');
    expect(recording).toMatchObject({ status: 'recovered', durationMs: 3000 });
    expect(recording!.transcriptId).not.toBeNull();
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
