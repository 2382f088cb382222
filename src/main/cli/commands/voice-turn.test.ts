import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { queueUtterance } from '../../../../test/emulator/voice/voice-test-client';
import { spokenPcm } from '../../../../test/fixtures/spoken-pcm';
import { bytesForMs } from '../../core/voice/pcm';
import { runCliProcess } from '../cli-process.test-kit';

const speed = 20;
const dir = mkdtempSync(join(tmpdir(), 'verbatim-cli-voice-turn-'));
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());

async function voiceProcess(input: string, output: string) {
  const started = Date.now();
  const run = await runCliProcess(['voice', '--input', input, '--output', output], {
    VERBATIM_DATA_DIR: join(dir, 'data'),
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_VOICE_URL: emulator.url,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
  });
  return { ...run, ms: Date.now() - started };
}

describe('voice from a file that ends', () => {
  it('takes the end of the input as the end of the turn, right after speech, and gets the reply', async () => {
    const input = join(dir, 'question-no-pause.raw');
    writeFileSync(input, spokenPcm(2)); // speech to the very last byte
    const output = join(dir, 'reply.raw');
    await queueUtterance(emulator.url, 'what did the mayor say');
    const run = await voiceProcess(input, output);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('you: what did the mayor say');
    expect(run.stdout).toMatch(/agent: .*You said: what did the mayor say\./);
    expect(readFileSync(output).length).toBeGreaterThan(0);
    expect(run.ms).toBeLessThan(30_000);
  }, 60_000);

  it('says so and exits 1 when the agent never answers', async () => {
    const input = join(dir, 'silence.raw');
    writeFileSync(input, Buffer.alloc(bytesForMs(1000)));
    const output = join(dir, 'no-reply.raw');
    const run = await voiceProcess(input, output);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the voice agent did not answer within 30 s of the end of the input');
    expect(run.stderr).toContain(`Nothing was written to ${output}`);
  }, 60_000);
});
