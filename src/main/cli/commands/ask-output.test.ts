import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { runCliProcess } from '../cli-process.test-kit';

const speed = 200;
const statement = resolve(import.meta.dirname, '../../../../test/fixtures/press-statement.wav');
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-ask-output-'));
let emulator: RunningEmulator;
let id: string;

function cliProcess(args: string[]) {
  return runCliProcess(args, {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_GATEWAY_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
  const run = await cliProcess(['transcribe', statement, '--wait', '--json']);
  id = (JSON.parse(run.stdout) as { id: string }[])[0]!.id;
}, 60_000);
afterAll(() => emulator.close());

describe('ask on the command line', () => {
  it('signs only an answer that came: a failed request says why and names no answering model', async () => {
    const run = await cliProcess(['ask', id, 'Hello', '--model', 'fail-always']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('None of the models could answer');
    expect(run.stdout).not.toContain('answered by');
  }, 30_000);

  it('streams tool calls on lines of their own, never glued to the answer', async () => {
    const run = await cliProcess(['ask', id, 'Search the library for the ferry contract', '--stream']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const toolLine = lines.findIndex((line) => line.startsWith('[tool search_library '));
    expect(toolLine, run.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[toolLine]).toMatch(/^\[tool search_library \{.*\}\]$/);
    expect(lines.at(-2)).toMatch(/^— answered by /);
    // Nothing of the answer shares a line with a tool call.
    for (const line of lines) if (line.includes('[tool ')) expect(line.startsWith('[tool ')).toBe(true);
  }, 30_000);
});
