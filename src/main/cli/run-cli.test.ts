import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { runCli } from './run-cli';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { runCliProcess, startCliProcess } from './cli-process.test-kit';

const speed = 200;
const fixtures = resolve(import.meta.dirname, '../../../test/fixtures');
const interview = join(fixtures, 'interview-ferry-contract.wav');
const statement = join(fixtures, 'press-statement.wav');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());

function env(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_TIME_SCALE: String(speed),
    ...extra,
  };
}

async function cli(args: string[], environment: NodeJS.ProcessEnv, isTty = false) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTty,
    env: environment,
  });
  return { code, out: out.join('\n'), err: err.join('') };
}

describe('the command line', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-'));

  it('transcribes a fixture interview to completion and finds it by a word, with its time', async () => {
    const run = await cli(
      ['transcribe', interview, '--options-json', '{"speaker_labels": true}', '--wait', '--json'],
      env(dataDir),
    );
    expect(run.code).toBe(0);
    const [job] = JSON.parse(run.out) as { id: string; status: string }[];
    expect(job?.status).toBe('completed');
    const search = await cli(['search', 'ferry', '--json'], env(dataDir));
    expect(search.code).toBe(0);
    const page = JSON.parse(search.out) as {
      hits: { transcriptId: string; startMs: number; endMs: number }[];
    };
    expect(page.hits.length).toBeGreaterThan(0);
    expect(page.hits[0]).toMatchObject({ transcriptId: job?.id, startMs: expect.any(Number) as number });
    expect(page.hits[0]!.endMs).toBeGreaterThan(page.hits[0]!.startMs);

    const show = await cli(['show', job!.id], env(dataDir));
    expect(show.out).toMatch(/\[00:00:\d\d\] Speaker A: /);
    const jobs = await cli(['jobs'], env(dataDir));
    expect(jobs.out).toContain(job!.id);
  });

  it('shows progress while waiting on a terminal, and stays quiet otherwise', async () => {
    const onTerminal = await cli(['transcribe', statement, '--wait'], env(dataDir), true);
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.err).toMatch(/uploading \d+%/);
    expect(onTerminal.err).toContain('processing');
    const piped = await cli(['transcribe', statement, '--wait'], env(dataDir), false);
    expect(piped.err).toBe('');
    const json = await cli(['transcribe', statement, '--wait', '--json'], env(dataDir), true);
    expect(json.err).toBe('');
  });

  it('exits 1 when a job ends in error, with the reason', async () => {
    const run = await cli(['transcribe', join(fixtures, 'silence.wav'), '--wait'], env(dataDir));
    expect(run.code).toBe(1);
    expect(run.out).toContain('error:');
  });

  it('exits 2 on bad usage and bad input, saying what is wrong', async () => {
    expect((await cli([], env(dataDir))).code).toBe(2);
    expect((await cli(['fly'], env(dataDir))).err).toContain('unknown command');
    expect((await cli(['transcribe'], env(dataDir))).code).toBe(2);
    expect((await cli(['search', 'x', '--limit', 'lots'], env(dataDir))).code).toBe(2);
    expect((await cli(['transcribe', interview, '--options-json', '{nope'], env(dataDir))).err).toContain(
      '--options-json',
    );
    const badOption = await cli(
      ['transcribe', interview, '--options-json', '{"speakers_expected": 0}'],
      env(dataDir),
    );
    expect(badOption).toMatchObject({ code: 2 });
    expect(badOption.err).toContain('speakers_expected');
    expect((await cli(['transcribe', '/nowhere.wav'], env(dataDir))).err).toContain('not found');
    expect((await cli(['transcribe', interview], env(dataDir, { VERBATIM_API_KEY: '' }))).err).toContain(
      'VERBATIM_API_KEY',
    );
    expect((await cli(['jobs'], env(dataDir, { VERBATIM_REGION: 'mars' }))).err).toContain('VERBATIM_REGION');
    expect((await cli(['show', 'missing-id'], env(dataDir))).code).toBe(2);
  });

  it('deletes locally, and on the service with --remote', async () => {
    const run = await cli(['transcribe', statement, '--wait', '--json'], env(dataDir));
    const [job] = JSON.parse(run.out) as { id: string; remoteId: string }[];
    const deleted = await cli(['delete', job!.id, '--remote', '--json'], env(dataDir));
    expect(JSON.parse(deleted.out)).toEqual({
      deleted: job!.id,
      remote: true,
      quotesInStories: { quotes: 0, stories: [], kept: true },
    });
    expect((await cli(['show', job!.id], env(dataDir))).code).toBe(2);
    const remote = await fetch(`${emulator.url}/v2/transcript/${job!.remoteId}`, {
      headers: { Authorization: emulator.options.key },
    });
    // The service keeps a record of a deleted transcript, with its text removed.
    expect(((await remote.json()) as { text?: string | null }).text).toBe('Deleted by user.');
  });
});

async function waitForJobs(dataDir: string, count: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    try {
      const db = openDatabase(join(dataDir, 'library.sqlite'));
      const stored = (db.prepare('SELECT count(*) AS n FROM transcripts').get() as { n: number }).n;
      db.close();
      if (stored >= count) return;
    } catch {
      // Not created yet, or busy being migrated by the child.
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the jobs were never stored');
}

describe('killed at random points and restarted', () => {
  it('loses no job and creates no transcript twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-kill-'));
    const files = [
      interview,
      statement,
      interview,
      statement,
      statement,
      interview,
      statement,
      interview,
      statement,
      statement,
    ];
    let random = 7;
    const nextRandom = (): number => {
      random = (random * 1103515245 + 12345) % 2 ** 31;
      return random / 2 ** 31;
    };
    const kills: number[] = [];
    for (let round = 0; round < 20 && kills.length < 6; round++) {
      const args = round === 0 ? ['transcribe', ...files, '--wait'] : ['resume', '--wait'];
      // The scheduler's clock runs slower than the emulator's here, so each run spends its
      // time uploading, polling and saving rather than starting up: more places to be killed.
      const { child, finished } = startCliProcess(args, env(dataDir, { VERBATIM_TIME_SCALE: '20' }));
      // The first run is killed only once it has stored every job: before that, the user's
      // command did not happen. After that, anywhere: uploading, submitting, polling, saving.
      if (round === 0) await waitForJobs(dataDir, files.length);
      const delay = round === 0 ? Math.floor(nextRandom() * 600) : 300 + Math.floor(nextRandom() * 1700);
      const timer = setTimeout(() => child.kill('SIGKILL'), delay);
      const { code, stderr } = await finished;
      clearTimeout(timer);
      if (code === null) kills.push(delay);
      else if (code !== 0) throw new Error(`round ${round} exited ${code}: ${stderr}`);
      if (code !== null) break; // everything finished: nothing left to interrupt
    }
    // A last, unhurried run finishes whatever the kills left.
    await runCliProcess(['resume', '--wait'], env(dataDir));
    expect(kills.length).toBeGreaterThanOrEqual(2);
    console.log(`kill-and-restart: ${kills.length} kills at ${kills.join(', ')} ms`);

    const db = openDatabase(join(dataDir, 'library.sqlite'));
    const jobs = await new Library(db).list();
    db.close();
    expect(jobs).toHaveLength(files.length);
    expect(jobs.map((job) => job.status)).toEqual(files.map(() => 'completed'));
    const remoteIds = jobs.map((job) => job.remoteId);
    expect(new Set(remoteIds).size).toBe(files.length);

    // On the service: one transcript per upload URL of ours, never two.
    const listed = await fetch(`${emulator.url}/v2/transcript?limit=200`, {
      headers: { Authorization: emulator.options.key },
    });
    const { transcripts } = (await listed.json()) as { transcripts: { id: string; audio_url: string }[] };
    for (const job of jobs) {
      const same = transcripts.filter((t) => t.audio_url === job.uploadUrl);
      expect(same.map((t) => t.id)).toEqual([job.remoteId]);
    }
  }, 120_000);
});
