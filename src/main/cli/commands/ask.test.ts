import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { runCli } from '../run-cli';

const speed = 200;
const statement = resolve(import.meta.dirname, '../../../../test/fixtures/press-statement.wav');
let emulator: RunningEmulator;
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-ask-'));
let id: string;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_GATEWAY_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
    ...extra,
  };
}

async function cli(args: string[], environment = env()) {
  const out: string[] = [];
  const err: string[] = [];
  const written: string[] = [];
  const code = await runCli(args, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    write: (t) => written.push(t),
    isTty: false,
    env: environment,
  });
  return { code, out: out.join('\n'), err: err.join(''), written };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
  const run = await cli(['transcribe', statement, '--wait', '--json']);
  id = (JSON.parse(run.out) as { id: string }[])[0]!.id;
});
afterAll(() => emulator.close());

describe('npm run cli -- ask', () => {
  it('answers a question about a transcript and says which model answered', async () => {
    const run = await cli(['ask', id, 'What', 'was', 'announced?', '--model', 'gpt-5']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/From the transcript: "/);
    expect(run.out).toMatch(/— answered by gpt-5, \d+ tokens, \d+ ms/);
  });

  it('streams the answer piece by piece with --stream', async () => {
    const run = await cli(['ask', id, 'Summarise the statement', '--stream']);
    expect(run.code).toBe(0);
    expect(run.written.length).toBeGreaterThan(3);
    expect(run.written.join('')).toContain('From the transcript');
  });

  it('returns JSON shaped by --json-schema, and the whole conversation with --json', async () => {
    const schemaFile = join(dataDir, 'schema.json');
    writeFileSync(
      schemaFile,
      JSON.stringify({
        type: 'object',
        properties: { people: { type: 'array', items: { type: 'string' } } },
        required: ['people'],
      }),
    );
    const run = await cli(['ask', id, 'Who is named?', '--json-schema', schemaFile]);
    expect(run.code).toBe(0);
    const json = run.out.slice(0, run.out.lastIndexOf('\n— answered'));
    expect(JSON.parse(json)).toEqual({ people: expect.any(Array) as unknown[] });

    const all = await cli(['ask', id, 'Anything else?', '--json']);
    const { entries } = JSON.parse(all.out) as { entries: { kind: string }[] };
    expect(entries.map((entry) => entry.kind)).toEqual(['question', 'answer']);
  });

  it('fails with the reason when no model can answer, and with usage for a bad call', async () => {
    const failed = await cli(['ask', id, 'Hello', '--model', 'fail-always']);
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('None of the models could answer');
    const noQuestion = await cli(['ask', id]);
    expect(noQuestion.code).toBe(2);
    expect(noQuestion.err).toContain('Usage');
    const unknown = await cli(['ask', 'no-such-id', 'Hello']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('No transcript with id no-such-id.');
    const badSchema = await cli(['ask', id, 'Hello', '--json-schema', join(dataDir, 'missing.json')]);
    expect(badSchema.code).toBe(2);
  });
});
