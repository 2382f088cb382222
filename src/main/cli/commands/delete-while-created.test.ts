import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type LoggedRequest, type RunningEmulator } from '../../../../test/emulator/server';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCliProcess, startCliProcess } from '../cli-process.test-kit';

// Issue #32, point 6: `delete --remote` while another process is creating the transcript on the
// service once said "Deleted", sent no DELETE, and the service finished it: billed, untracked,
// its audio kept there.
const speed = 200;
const statement = resolve(import.meta.dirname, '../../../../test/fixtures/press-statement.wav');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());

function environment(dataDir: string): Record<string, string> {
  return {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
  };
}

async function requestLog(): Promise<LoggedRequest[]> {
  return ((await (await fetch(`${emulator.url}/__admin/requests`)).json()) as { requests: LoggedRequest[] })
    .requests;
}

async function until<T>(find: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const found = await find();
    if (found !== undefined) return found;
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  throw new Error(`${what} never happened`);
}

describe('delete --remote while another process is creating the transcript', () => {
  it('is recorded, and the sending process deletes it on the service once it may, then here', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-delete-while-created-'));
    const library = new Library(openDatabase(join(dataDir, 'library.sqlite')), () => Date.now());
    await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });
    // The service takes 15 s to answer the create: long enough for the second process to start
    // and ask for the deletion, however slowly a loaded machine starts it.
    await fetch(`${emulator.url}/__admin/faults`, {
      method: 'POST',
      body: JSON.stringify({ method: 'POST', path: '^/v2/transcript$', kind: 'slow', delayMs: 15_000 }),
    });
    const sender = startCliProcess(['transcribe', statement, '--wait', '--json'], environment(dataDir));
    const create = await until(
      async () => (await requestLog()).find((r) => r.method === 'POST' && r.path === '/v2/transcript'),
      'the create',
    );
    const [job] = await library.list();

    const deleter = await runCliProcess(['delete', job!.id, '--remote'], environment(dataDir));
    expect(deleter.code, deleter.stderr).toBe(0);
    expect(deleter.stdout).toMatch(
      /^"press-statement" is still being made on the service, which deletes a transcript only once it has finished\. a Verbatim command line \(process \d+\) will then delete it there and here; nothing of it will be kept\.\n$/,
    );
    // The deletion was asked for while the create was still unanswered.
    expect((await requestLog()).find((r) => r.at === create.at && r.path === create.path)?.status).toBe(0);

    const sent = await sender.finished;
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toEqual([]);
    expect(await library.get(job!.id)).toBeUndefined();

    const log = await requestLog();
    expect(log.filter((r) => r.method === 'POST' && r.path === '/v2/transcript')).toHaveLength(1);
    const deletes = log.filter((r) => r.method === 'DELETE');
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.status).toBe(200);
    // Its words were never fetched: the journalist asked for it gone.
    expect(log.filter((r) => r.path.endsWith('/sentences'))).toEqual([]);
    const remoteId = deletes[0]!.path.split('/').at(-1)!;
    const remote = (await (
      await fetch(`${emulator.url}/v2/transcript/${remoteId}`, {
        headers: { Authorization: emulator.options.key },
      })
    ).json()) as { status: string; audio_url: string };
    expect(remote).toMatchObject({ status: 'completed', audio_url: 'http://deleted_by_user' });
  }, 120_000);
});
