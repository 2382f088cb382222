import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { patternChunk } from '../../core/recording/record-and-report.test-kit';
import { alsaFileInput } from '../alsa-file-input.test-kit';
import { runCliProcess, startCliProcess } from '../cli-process.test-kit';

/**
 * `record` and `recordings` through real child processes, capturing through PortAudio from ALSA's
 * `file` plugin: its input is a raw PCM file (16 kHz mono here), read faster than real time.
 */
const dir = mkdtempSync(join(tmpdir(), 'verbatim-record-'));
// Six seconds of a known pattern; the plugin repeats stale data past the end.
const sound = patternChunk(0, 16_000 * 6);
const config = alsaFileInput(dir, sound);

function environment(dataDir: string): Record<string, string> {
  return { VERBATIM_DATA_DIR: dataDir, ALSA_CONFIG_PATH: config };
}

interface ListedRecording {
  path: string;
  status: string;
  durationMs: number;
  sampleRate: number;
  channels: number;
  processId: number;
}

async function listed(dataDir: string): Promise<ListedRecording[]> {
  const run = await runCliProcess(['recordings', '--json'], environment(dataDir));
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ListedRecording[];
}

/** Until the file at `path` holds more than `bytes` of sound. */
async function holdsSound(path: string, bytes: number): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 50) {
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    try {
      if (readFileSync(path).length > 44 + bytes) return;
    } catch {
      // not created yet
    }
  }
}

describe('record from the command line', () => {
  it('records the seconds asked for into a WAV the library lists', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const output = join(dir, 'one-second.wav');
    const run = await runCliProcess(
      ['record', '--rate', '16000', '--duration', '1', '--output', output, '--json'],
      environment(dataDir),
    );
    expect(run.code, run.stderr).toBe(0);
    // PortAudio's own words ("PortAudio V19.7.0-devel…", "Finishing input…") are not for the reporter.
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ path: output, status: 'finished', durationMs: 1000 });
    const file = readFileSync(output);
    expect(file.toString('latin1', 0, 4)).toBe('RIFF');
    expect(file.readUInt32LE(40)).toBe(32_000);
    expect(file.subarray(44).equals(sound.subarray(0, 32_000))).toBe(true);
    expect(await listed(dataDir)).toMatchObject([
      { path: output, status: 'finished', durationMs: 1000, sampleRate: 16_000, channels: 1 },
    ]);
    const again = await runCliProcess(
      ['record', '--duration', '1', '--output', output],
      environment(dataDir),
    );
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toBe(
      `verbatim: ${output} is there already; a recording never replaces a file. Give --output another name.\n`,
    );
    expect(await listed(dataDir)).toHaveLength(1);
    const nowhere = join(dir, 'never-made', 'interview.wav');
    const noFolder = await runCliProcess(['record', '--output', nowhere], environment(dataDir));
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toBe(
      `verbatim: There is no folder ${join(dir, 'never-made')}. Give --output a file in a folder that exists.\n`,
    );
    const bad = await runCliProcess(['record', '--rate', '22050'], environment(dataDir));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--rate is one of 48000, 44100, 16000, not "22050"');
  }, 120_000);

  it('a recording SIGKILLed mid-way is repaired and listed by the next start, every byte in order', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const output = join(dir, 'killed.wav');
    const started = startCliProcess(['record', '--rate', '16000', '--output', output], environment(dataDir));
    // Until the file holds sound, then a little longer.
    await holdsSound(output, 3200);
    await new Promise((resolveWait) => setTimeout(resolveWait, Math.floor(Math.random() * 300)));
    // The recorder is a process of its own: both go, as in a crash or a power cut.
    const [during] = await listed(dataDir);
    expect(during).toMatchObject({ status: 'recording', path: output });
    process.kill(during!.processId, 'SIGKILL');
    started.child.kill('SIGKILL');
    await started.finished;

    const [recording] = await listed(dataDir);
    expect(recording).toMatchObject({ path: output, status: 'recovered', sampleRate: 16_000 });
    const file = readFileSync(output);
    const kept = file.subarray(44);
    expect(file.readUInt32LE(40)).toBe(kept.length);
    expect(kept.length % 2).toBe(0);
    expect(recording!.durationMs).toBe(Math.round((kept.length / 2 / 16_000) * 1000));
    const compared = Math.min(kept.length, sound.length);
    expect(kept.subarray(0, compared).equals(sound.subarray(0, compared))).toBe(true);
    // Listed again, nothing is left to repair.
    const human = await runCliProcess(['recordings'], environment(dataDir));
    expect(human.stdout).not.toContain('Repaired after a crash');
    expect(human.stdout).toContain('recovered');
  }, 60_000);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`stops cleanly on ${signal === 'SIGINT' ? 'Ctrl+C' : 'SIGTERM'}, keeping every byte and a finished header`, async () => {
      const dataDir = mkdtempSync(join(dir, 'data-'));
      const output = join(dir, `stopped-by-${signal}.wav`);
      const started = startCliProcess(
        ['record', '--rate', '16000', '--output', output, '--json'],
        environment(dataDir),
      );
      await holdsSound(output, 3200);
      started.child.kill(signal);
      const run = await started.finished;
      expect(run.code, run.stderr).toBe(0);
      const printed = JSON.parse(run.stdout) as ListedRecording;
      expect(printed).toMatchObject({ path: output, status: 'finished' });
      const file = readFileSync(output);
      const kept = file.subarray(44);
      expect(file.readUInt32LE(40)).toBe(kept.length);
      expect(printed.durationMs).toBe(Math.round((kept.length / 2 / 16_000) * 1000));
      expect(kept.length).toBeGreaterThan(3200);
      const compared = Math.min(kept.length, sound.length);
      expect(kept.subarray(0, compared).equals(sound.subarray(0, compared))).toBe(true);
      expect(await listed(dataDir)).toMatchObject([{ path: output, status: 'finished' }]);
    }, 60_000);
  }
});

describe('the inputs record takes', () => {
  it('refuses a device no input has, naming the inputs, and records nothing', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const output = join(dir, 'no-such-device.wav');
    const run = await runCliProcess(
      ['record', '--device', '99', '--rate', '16000', '--duration', '1', '--output', output],
      environment(dataDir),
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `verbatim: There is no input device 99. Give --device one of these: 0 "default" (the system's default). Or leave it out to record from the system's default.\n`,
    );
    expect(existsSync(output)).toBe(false);
    expect(await listed(dataDir)).toEqual([]);
  }, 60_000);

  it('lists the inputs with their numbers, as text and as JSON, with nothing from PortAudio', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const text = await runCliProcess(['record', '--list-devices'], environment(dataDir));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toBe('');
    expect(text.stdout).toBe(
      "Inputs to record from (record --device N):\n   0  default  mono or stereo  the system's default\n",
    );
    const json = await runCliProcess(['record', '--list-devices', '--json'], environment(dataDir));
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject([{ id: 0, name: 'default', isDefault: true }]);
    // The number listed is one record takes.
    const output = join(dir, 'listed-device.wav');
    const recorded = await runCliProcess(
      ['record', '--device', '0', '--rate', '16000', '--duration', '1', '--output', output, '--json'],
      environment(dataDir),
    );
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stderr).toBe('');
    expect(readFileSync(output).subarray(44).equals(sound.subarray(0, 32_000))).toBe(true);
  }, 60_000);

  it('shows what PortAudio says with --verbose, on standard error only', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const output = join(dir, 'verbose.wav');
    const run = await runCliProcess(
      ['--verbose', 'record', '--rate', '16000', '--duration', '1', '--output', output, '--json'],
      environment(dataDir),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^PortAudio V19/m);
    expect(run.stderr).toMatch(/^Finishing input/m);
    expect(JSON.parse(run.stdout)).toMatchObject({ path: output, status: 'finished' });
  }, 60_000);
});
