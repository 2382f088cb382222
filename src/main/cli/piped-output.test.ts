import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { cliCommandLine } from './cli-process.test-kit';

/**
 * Everything a command prints arrives whole through a pipe, as in `verbatim … --json | jq`.
 * The reader here is slow on purpose (as jq on a busy machine is): the pipe fills, and a
 * process that exits before its output drained loses the rest (it stopped at 64 KiB).
 */
const megabyte = 1024 * 1024;
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-piped-'));
let emulator: RunningEmulator;
/** The service's addresses, stood in for at the network boundary where the emulator's answers are small. */
let bigCatalog: Server;
let bigGateway: Server;
const addressOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolveListen) => server.listen(0, '127.0.0.1', () => resolveListen(server)));
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
  // The catalog: the emulator's 363 models, four times over under other names (about 2 MB).
  const full = (await (
    await fetch(`${emulator.url}/api/v1/models/user`, {
      headers: { Authorization: `Bearer ${emulator.options.key}` },
    })
  ).json()) as { data: { id: string; canonical_slug?: string }[] };
  const models = [0, 1, 2, 3].flatMap((copy) =>
    full.data.map((model) => ({
      ...model,
      id: `${model.id}-${copy}`,
      canonical_slug: `${model.canonical_slug ?? model.id}-${copy}`,
    })),
  );
  bigCatalog = await listen((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? models.length);
    const next =
      offset + limit < models.length
        ? `${addressOf(bigCatalog)}/api/v1/models/user?offset=${offset + limit}&limit=${limit}`
        : null;
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(
      JSON.stringify({
        data: models.slice(offset, offset + limit),
        total_count: models.length,
        links: { next },
      }),
    );
  });
  // The gateway: an answer of 1.2 MB.
  bigGateway = await listen((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          request_id: 'req-1',
          model: 'big/model',
          choices: [
            {
              message: { role: 'assistant', content: 'The ferry contract. '.repeat(60_000) },
              finish_reason: 'stop',
            },
          ],
          usage: { input_tokens: 10, output_tokens: 300_000, total_tokens: 300_010 },
          http_status_code: 200,
          response_time: 1_000_000,
          llm_status_code: 200,
        }),
      );
    });
  });

  const library = new Library(openDatabase(join(dataDir, 'library.sqlite')), () => Date.now());
  // 3,000 jobs, a three-hour transcript, and 200 long sentences that all say "harbour".
  for (let index = 0; index < 3000; index++)
    await library.createJob({
      id: `job-${String(index).padStart(4, '0')}`,
      title: `Council meeting recording number ${index} about the harbour and the ferry contract ${index === 1 ? 'harbour '.repeat(800) : 'and the budget '.repeat(80)}`,
      sourceKind: 'file',
      source: `/recordings/council-${index}.wav`,
      audioPath: `/recordings/council-${index}.wav`,
      region: 'us',
      options: {},
      status: 'cancelled',
    });
  const sentence = (index: number, text: string, speaker?: string) => ({
    text,
    start: index * 3000,
    end: index * 3000 + 2900,
    confidence: 0.9,
    speaker,
    words: text.split(' ').map((word, position) => ({
      text: word,
      start: index * 3000 + position * 10,
      end: index * 3000 + position * 10 + 9,
      confidence: 0.9,
      speaker: 'A',
    })),
  });
  const long = Array.from({ length: 3600 }, (_, index) =>
    sentence(index, `Sentence ${index} of the long council meeting about the budget.`),
  );
  await library.saveCompleted('job-0000', {
    transcript: { id: 'remote-long', text: 'long', language_code: 'en_us', audio_duration: 10_800 },
    sentences: long,
    paragraphs: [{ text: 'long', start: 0, end: 10_800_000, confidence: 0.9 }],
  });
  await library.updateJob('job-0000', { remoteId: 'remote-long' });
  const harbour = Array.from({ length: 200 }, (_, index) =>
    sentence(index, `harbour ${'the ferry left the harbour on time again '.repeat(150)}`, 'A'),
  );
  await library.saveCompleted('job-0001', {
    transcript: { id: 'remote-harbour', text: 'harbour', language_code: 'en_us', audio_duration: 600 },
    sentences: harbour,
    paragraphs: [{ text: 'harbour', start: 0, end: 600_000, confidence: 0.9 }],
  });
}, 120_000);

afterAll(async () => {
  bigCatalog.close();
  bigGateway.close();
  await emulator.close();
});

async function pipedThroughSlowReader(
  args: string[],
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  // A real shell pipe into a reader that starts late, as `verbatim … | jq` on a busy machine.
  const command = cliCommandLine(args)
    .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
    .join(' ');
  const child = spawn('bash', ['-o', 'pipefail', '-c', `${command} | (sleep 3; cat)`], {
    env: {
      ...process.env,
      VERBATIM_DATA_DIR: dataDir,
      VERBATIM_API_KEY: emulator.options.key,
      VERBATIM_TRANSCRIPTION_URL: emulator.url,
      VERBATIM_CATALOG_URL: addressOf(bigCatalog),
      VERBATIM_CATALOG_KEY: 'key',
      VERBATIM_GATEWAY_URL: addressOf(bigGateway),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolveExit) => child.on('close', resolveExit));
  return { code, stdout: Buffer.concat(chunks), stderr };
}

describe('output through a pipe', () => {
  it.each([
    ['catalog models --json', ['catalog', 'models', '--json']],
    ['jobs --json', ['jobs', '--json']],
    ['show --json of a three-hour transcript', ['show', 'job-0000', '--json']],
    ['search --json', ['search', 'harbour', '--json', '--limit', '200']],
    ['ask --json', ['ask', 'job-0000', 'What was said about the ferry contract?', '--json']],
  ])(
    '%s arrives whole: more than 1 MB, parsed',
    async (_name, args) => {
      const run = await pipedThroughSlowReader(args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.length).toBeGreaterThan(megabyte);
      expect(() => JSON.parse(run.stdout.toString('utf8')) as unknown).not.toThrow();
    },
    60_000,
  );

  it('search prints a hit without a speaker as title, time and words, with no stray colon', async () => {
    const run = await pipedThroughSlowReader(['search', 'budget', '--limit', '1']);
    expect(run.code, run.stderr).toBe(0);
    const line = run.stdout.toString('utf8').trim();
    // The long meeting's sentences have no speaker label.
    expect(line).toMatch(
      /^Council meeting recording number 0 .* \[\d\d:\d\d:\d\d\] Sentence \d+ of the long council meeting about the \*\*budget\*\*\.$/,
    );
    expect(line).not.toContain('] : ');
  }, 30_000);
});
