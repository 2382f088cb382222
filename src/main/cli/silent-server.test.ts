import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { startSilentServer, type Silence, type SilentServer } from '../core/http/silent-server.test-kit';
import { runCliProcess } from './cli-process.test-kit';
import { runCli } from './run-cli';

// Issue #32, point 5: a server that goes silent ends every command within a bound, with a
// sentence. The bounds are shrunk twenty times (idle 1.5 s, a quick call 3 s, a model's answer
// 4.5 s) so that the real command line, as a child process, meets them quickly.
const timeoutScale = '0.05';
const speed = 200;
const statement = resolve(import.meta.dirname, '../../../test/fixtures/press-statement.wav');
let emulator: RunningEmulator;
const silentServers: SilentServer[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(async () => {
  await emulator.close();
  await Promise.all(silentServers.map((server) => server.close()));
});

async function silentServer(silence: Silence): Promise<SilentServer> {
  const server = await startSilentServer(silence);
  silentServers.push(server);
  return server;
}

function environment(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_GATEWAY_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
    VERBATIM_TIMEOUT_SCALE: timeoutScale,
    ...extra,
  };
}

async function jobsIn(dataDir: string) {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  try {
    return await new Library(db, () => Date.now()).list();
  } finally {
    db.close();
  }
}

describe('a service that goes silent during an upload', () => {
  for (const [silence, said] of [
    ['never-answers', /received "press-statement\.wav" but did not answer for 1\.5 s\./],
    ['headers-then-stalls', /received "press-statement\.wav" but did not answer for 1\.5 s\./],
  ] as const)
    it(`(${silence}) ends the command with a sentence, keeps the job for resume, which finishes it`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-silent-upload-'));
      const silent = await silentServer(silence);
      const run = await runCliProcess(
        ['transcribe', statement],
        environment(dataDir, { VERBATIM_TRANSCRIPTION_URL: silent.url }),
      );
      expect(run.code, run.stderr).toBe(1);
      expect(silent.requests).toEqual(['POST /v2/upload']);
      expect(run.stderr).toMatch(said);
      expect(run.stderr).toMatch(
        /The recording is kept; it will be sent again at the next start or resume\.\n$/,
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);
      const [stopped] = await jobsIn(dataDir);
      expect(stopped).toMatchObject({ status: 'uploading', remoteId: null });
      expect(stopped!.error).toMatch(said);

      const resumed = await runCliProcess(['resume', '--wait', '--json'], environment(dataDir));
      expect(resumed.code, resumed.stderr).toBe(0);
      const [finished] = await jobsIn(dataDir);
      expect(finished).toMatchObject({ id: stopped!.id, status: 'completed', error: null });
    }, 60_000);
});

describe('quick calls to a silent service end within their bound', () => {
  let dataDir: string;
  let id: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'verbatim-silent-calls-'));
    const out: string[] = [];
    const code = await runCli(['transcribe', statement, '--wait', '--json'], {
      out: (text) => out.push(text),
      err: () => undefined,
      isTty: false,
      env: environment(dataDir),
    });
    expect(code).toBe(0);
    id = (JSON.parse(out.join('')) as { id: string }[])[0]!.id;
  }, 60_000);

  it('ask: the gateway that never answers is given 4.5 s, and said so', async () => {
    const silent = await silentServer('never-answers');
    const started = performance.now();
    const run = await runCliProcess(
      ['ask', id, 'What was announced?'],
      environment(dataDir, { VERBATIM_GATEWAY_URL: silent.url }),
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /language-model gateway (did not answer within|stopped answering: nothing came for) 4\.5 s/,
    );
    expect(silent.requests).toEqual(['POST /v1/chat/completions']);
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('catalog models: the catalog that never answers is given 3 s, retries included', async () => {
    const silent = await silentServer('never-answers');
    const run = await runCliProcess(
      ['catalog', 'models'],
      environment(dataDir, { VERBATIM_CATALOG_KEY: 'catalog-key', VERBATIM_CATALOG_URL: silent.url }),
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /model catalog did not answer within 3 s\. Check your connection and try again\./,
    );
    expect(silent.requests.length).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('delete --remote: the service that sends headers then stalls is given 3 s; nothing is deleted here', async () => {
    const silent = await silentServer('headers-then-stalls');
    const run = await runCliProcess(
      ['delete', id, '--remote'],
      environment(dataDir, { VERBATIM_TRANSCRIPTION_URL: silent.url }),
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /transcription service did not answer within 3 s\. Check your connection and try again\./,
    );
    expect(silent.requests[0]).toMatch(/^DELETE \/v2\/transcript\//);
    expect((await jobsIn(dataDir)).map((job) => job.id)).toContain(id);
  }, 60_000);
});
