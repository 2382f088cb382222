import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { spokenPcm } from '../../../../test/fixtures/spoken-pcm';
import { formatRecordedAt } from '../../../shared/display-format';
import type { Recording } from '../../../shared/recording';
import { alsaFileInput } from '../alsa-file-input.test-kit';
import { runCliProcess } from '../cli-process.test-kit';

/**
 * `recordings` tells the truth about each recording (issue #31): the transcript made from it
 * however it was sent, and a file that has gone. Real child processes: `record` captures the
 * spoken press statement through ALSA's `file` plugin, `transcribe` sends it to the emulator.
 */
const speed = 200;
const dir = mkdtempSync(join(tmpdir(), 'verbatim-recordings-cli-'));
const config = alsaFileInput(dir, spokenPcm(8, 16_000));
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(dataDir: string, args: string[]) {
  return runCliProcess(args, {
    VERBATIM_DATA_DIR: dataDir,
    ALSA_CONFIG_PATH: config,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
  });
}

async function record(dataDir: string, output: string): Promise<Recording> {
  const run = await cli(dataDir, [
    'record',
    '--rate',
    '16000',
    '--duration',
    '3',
    '--output',
    output,
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Recording;
}

async function listed(dataDir: string): Promise<Recording[]> {
  const run = await cli(dataDir, ['recordings', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Recording[];
}

async function transcribe(dataDir: string, file: string): Promise<string> {
  const run = await cli(dataDir, ['transcribe', file, '--wait', '--json']);
  expect(run.code, run.stderr).toBe(0);
  const [job] = JSON.parse(run.stdout) as { id: string; status: string }[];
  expect(job!.status).toBe('completed');
  return job!.id;
}

describe('recordings and their transcripts on the command line', () => {
  it('links the transcript of a recorded file sent with transcribe, by its path or as a copy', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const output = join(dir, 'interview.wav');
    const recording = await record(dataDir, output);
    expect(recording.transcriptId).toBeNull();

    const first = await transcribe(dataDir, output);
    expect(await listed(dataDir)).toMatchObject([{ id: recording.id, transcriptId: first }]);

    // A copy of the file (on the desktop, say) is the same recording: its latest transcript.
    const copy = join(dir, 'copy of interview.wav');
    copyFileSync(output, copy);
    const second = await transcribe(dataDir, copy);
    expect(await listed(dataDir)).toMatchObject([{ id: recording.id, transcriptId: second }]);

    const human = await cli(dataDir, ['recordings']);
    expect(human.stdout).toContain(`transcript ${second}`);
  }, 180_000);

  it('says a recording whose file is gone is missing, and finished again once it is back', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const output = join(dir, 'deleted.wav');
    const recording = await record(dataDir, output);
    const aside = join(dir, 'put aside.wav');
    renameSync(output, aside);

    expect(await listed(dataDir)).toMatchObject([{ id: recording.id, status: 'missing' }]);
    const human = await cli(dataDir, ['recordings']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toBe(
      `${String(recording.id).padStart(4)}  ${formatRecordedAt(recording.startedAt).padEnd(22)}      3.0 s  mono    16000 Hz  file missing  ${output}\n`,
    );

    renameSync(aside, output);
    expect(await listed(dataDir)).toMatchObject([{ id: recording.id, status: 'finished' }]);
  }, 120_000);
});
