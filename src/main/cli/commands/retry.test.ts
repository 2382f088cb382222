import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCliProcess } from '../cli-process.test-kit';

const speed = 200;
const statement = resolve(import.meta.dirname, '../../../../test/fixtures/press-statement.wav');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());

function cli(args: string[], dataDir: string) {
  return runCliProcess(args, {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
  });
}

/** The service's log of transcripts created since the last call. */
async function createdOnService(): Promise<number> {
  const log = (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
    requests: { method: string; path: string }[];
  };
  await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });
  return log.requests.filter((request) => request.method === 'POST' && request.path === '/v2/transcript')
    .length;
}

/** A recording transcribed through the command line, then its local copy set to a state. */
async function transcribedThen(patch: Parameters<Library['updateJob']>[1]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-retry-'));
  const made = await cli(['transcribe', statement, '--wait', '--json'], dataDir);
  expect(made.code, made.stderr).toBe(0);
  const [job] = JSON.parse(made.stdout) as { id: string }[];
  const library = new Library(openDatabase(join(dataDir, 'library.sqlite')), () => Date.now());
  await library.updateJob(job!.id, patch);
  await createdOnService();
  return { dataDir, id: job!.id, library };
}

describe('retry and resume from the command line', () => {
  it('retry <id> finishes a job marked failed although the service had finished it, without creating it again', async () => {
    // What "database is locked" did before writes took the lock up front.
    const { dataDir, id, library } = await transcribedThen({ status: 'error', error: 'database is locked' });
    const run = await cli(['retry', id, '--wait', '--json'], dataDir);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id, status: 'completed', error: null });
    expect(await createdOnService()).toBe(0);
    expect((await library.sentences(id)).length).toBeGreaterThan(0);
  });

  it('resume picks up a job whose local save failed, and fetches it rather than creating it', async () => {
    const { dataDir, id, library } = await transcribedThen({ status: 'fetching', error: null });
    const run = await cli(['resume', '--wait', '--json'], dataDir);
    expect(run.code, run.stderr).toBe(0);
    expect((await library.get(id))?.status).toBe('completed');
    expect(await createdOnService()).toBe(0);
  });

  it('refuses, with exit code 2 and a sentence, to retry what has not failed or does not exist', async () => {
    const { dataDir, id } = await transcribedThen({});
    const finished = await cli(['retry', id], dataDir);
    expect(finished.code).toBe(2);
    expect(finished.stderr).toContain('has not failed (it is completed); there is nothing to retry');
    const unknown = await cli(['retry', 'no-such-id'], dataDir);
    expect(unknown.code).toBe(2);
    // A whole line, so a shell prompt or the next message does not run into it.
    expect(unknown.stderr).toMatch(/^verbatim: .*No transcript with id no-such-id\.\n$/);
    const bare = await cli(['retry'], dataDir);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('retry needs a transcript id');
  });
});
