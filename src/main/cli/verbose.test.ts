import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { runCliProcess } from './cli-process.test-kit';

/**
 * The command line's log, run as a person runs it (a child process, output piped): every run
 * writes the data folder's log file; --verbose also shows it on standard error, and neither
 * touches standard output nor ever writes the key.
 */
const speed = 200;
const statement = resolve(import.meta.dirname, '../../../test/fixtures/press-statement.wav');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());

function transcribe(dataDir: string, global: string[]) {
  return runCliProcess([...global, 'transcribe', statement, '--wait', '--json'], {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
  });
}

describe('the command line’s log', () => {
  it('with --verbose, shows each step of the job on standard error and in the log file, never the key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-verbose-'));
    const run = await transcribe(dataDir, ['--verbose']);
    expect(run.code, run.stderr).toBe(0);
    const [job] = JSON.parse(run.stdout) as { id: string }[];
    expect(run.stderr).toContain(`job ${job!.id}: started`);
    expect(run.stderr).toContain(`job ${job!.id} is now fetching`);
    const file = readFileSync(join(dataDir, 'logs', 'verbatim.log'), 'utf8');
    expect(file).toContain(`job ${job!.id} is now fetching`);
    for (const text of [run.stdout, run.stderr, file]) expect(text).not.toContain(emulator.options.key);
  }, 60_000);

  it('without it, keeps standard error quiet and the file at information level', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-quiet-'));
    const run = await transcribe(dataDir, []);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const [job] = JSON.parse(run.stdout) as { id: string }[];
    // Nothing at information level happened, so the file may not even exist yet.
    const path = join(dataDir, 'logs', 'verbatim.log');
    const file = existsSync(path) ? readFileSync(path, 'utf8') : '';
    expect(file).not.toContain(`job ${job!.id}: started`);
  }, 60_000);

  it('names --verbose in the help, among the options before the command', async () => {
    const run = await runCliProcess(['--help'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--verbose\s+also writes the log/);
  });
});
