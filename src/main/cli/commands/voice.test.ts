import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { queueUtterance } from '../../../../test/emulator/voice/voice-test-client';
import { spokenPcm } from '../../../../test/fixtures/spoken-pcm';
import { runCli } from '../run-cli';
import { bytesForMs } from '../../core/voice/pcm';

const speed = 20;
const dir = mkdtempSync(join(tmpdir(), 'verbatim-cli-voice-'));
const input = join(dir, 'question.raw');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
  // Two seconds of the spoken fixture, then silence so the agent hears the turn end.
  writeFileSync(input, Buffer.concat([spokenPcm(2), Buffer.alloc(bytesForMs(1200))]));
});
afterAll(() => emulator.close());

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    VERBATIM_DATA_DIR: join(dir, 'data'),
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_VOICE_URL: emulator.url,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
    ...extra,
  };
}

async function cli(args: string[], environment: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTty: false,
    env: environment,
  });
  return { code, out, err: err.join('') };
}

describe('npm run cli -- voice', () => {
  it('runs a session from a raw file, prints the conversation and writes the agent audio', async () => {
    const output = join(dir, 'reply.raw');
    await queueUtterance(emulator.url, 'what did the mayor say');
    const run = await cli(['voice', '--input', input, '--output', output], env());
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain('you: what did the mayor say');
    const agent = run.out.find((line) => line.startsWith('agent: '));
    expect(agent).toMatch(/You said: what did the mayor say\.$/);
    expect(run.out.indexOf('[user-speaking]')).toBeLessThan(run.out.indexOf('you: what did the mayor say'));
    expect(run.out.at(-1)).toBe('[closed]');
    // One 50 ms chunk of audio per character of the reply.
    const replyText = agent!.slice('agent: '.length);
    expect(readFileSync(output).length).toBe(replyText.length * bytesForMs(50));
  });

  it('prints JSON events with --json, including a tool call and its result', async () => {
    const output = join(dir, 'tool-reply.raw');
    await queueUtterance(emulator.url, 'the newest 3 with their status');
    const run = await cli(['voice', '--input', input, '--output', output, '--json'], env());
    expect(run.code).toBe(0);
    const events = run.out.map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    const call = events.find((event) => event.type === 'tool-call');
    expect(call).toMatchObject({ name: 'list_recent_transcripts' });
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      callId: call?.callId,
      sent: true,
      result: JSON.stringify({ transcripts: [] }),
    });
    const followUp = events.filter((event) => event.type === 'agent-transcript').at(-1);
    expect(followUp?.text).toContain('list recent transcripts says: no transcripts.');
    expect(call?.arguments).toEqual({ limit: 3 });
  });

  it('fails with a clear message when the agent cannot be reached, and explains its usage', async () => {
    const refused = await cli(
      ['voice', '--input', input, '--output', join(dir, 'x.raw')],
      env({ VERBATIM_VOICE_URL: 'http://127.0.0.1:9' }),
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/refused the connection/);
    const usage = await cli(['voice', '--input', input], env());
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/voice needs --input FILE.raw and --output FILE.raw/);
    const noKey = await cli(
      ['voice', '--input', input, '--output', join(dir, 'y.raw')],
      env({ VERBATIM_API_KEY: '' }),
    );
    expect(noKey.code).toBe(2);
  });
});
