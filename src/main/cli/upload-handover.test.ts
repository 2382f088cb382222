import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type LoggedRequest, type RunningEmulator } from '../../../test/emulator/server';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { startCliProcess } from './cli-process.test-kit';

// Issue #32, point 13: when the command line that sent the folder's jobs ended, the uploads it
// was sending for the other command lines were cut and sent again by the next one (7 uploads
// for 4 jobs).
const speed = 200;
const fixtures = resolve(import.meta.dirname, '../../../test/fixtures');
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
    // The held uploads below (25 s) stay well inside the idle bound (60 s).
    VERBATIM_TIMEOUT_SCALE: '2',
  };
}

async function requestLog(): Promise<LoggedRequest[]> {
  return ((await (await fetch(`${emulator.url}/__admin/requests`)).json()) as { requests: LoggedRequest[] })
    .requests;
}

async function fault(body: unknown): Promise<void> {
  await fetch(`${emulator.url}/__admin/faults`, { method: 'POST', body: JSON.stringify(body) });
}

async function until(found: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    if (await found()) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  throw new Error(`${what} never happened`);
}

const isUpload = (request: LoggedRequest): boolean =>
  request.method === 'POST' && request.path === '/v2/upload';

describe('the command line that sends the folder’s jobs ends while it uploads for others', () => {
  it('finishes those uploads, and the next sender creates them without sending them again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-upload-handover-'));
    await fetch(`${emulator.url}/__admin/reset`, { method: 'POST' });
    // The first process's own job finishes 20 s after it is created (its first status check is
    // held), so it ends while the uploads it took on for the others are still being sent.
    await fault({ method: 'GET', path: '^/v2/transcript/[^/]+$', kind: 'slow', delayMs: 20_000 });
    const first = startCliProcess(
      ['transcribe', join(fixtures, 'press-statement.wav'), '--wait', '--json'],
      environment(dataDir),
    );
    await until(async () => (await requestLog()).some((r) => isUpload(r) && r.status === 200), 'the upload');
    // Every later upload is held 25 s by the service, longer than the first process lives.
    await fault({ method: 'POST', path: '^/v2/upload$', kind: 'slow', delayMs: 25_000, count: 3 });
    const others = ['spanish-clip.wav', 'stereo-call.wav', 'interview-ferry-contract.wav'].map((file) =>
      startCliProcess(['transcribe', join(fixtures, file), '--wait', '--json'], environment(dataDir)),
    );

    // What the first process prints, as soon as it prints it (or all it left, if it ended).
    const firstPrinted = await Promise.race([
      new Promise<string>((resolvePrinted) => {
        let stdout = '';
        first.child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.endsWith('\n')) resolvePrinted(stdout);
        });
      }),
      first.finished.then((run) => `${run.stdout}${run.stderr}`),
    ]);
    // Its own job is done and printed while it still sends the others' recordings.
    expect(JSON.parse(firstPrinted)).toMatchObject([{ status: 'completed' }]);
    const sendingWhenDone = (await requestLog()).filter((r) => isUpload(r) && r.status === 0);
    expect(sendingWhenDone.length).toBeGreaterThan(0);

    const runs = await Promise.all([first.finished, ...others.map((other) => other.finished)]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(runs[0].stderr).toMatch(
      /^verbatim: finishing (an upload|2 uploads) already under way before exiting, so that no recording is sent twice\.\n$/,
    );
    for (const run of runs.slice(1)) expect(JSON.parse(run.stdout)).toMatchObject([{ status: 'completed' }]);

    const log = await requestLog();
    expect(log.filter(isUpload).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(log.filter((r) => r.method === 'POST' && r.path === '/v2/transcript')).toHaveLength(4);
    const library = new Library(openDatabase(join(dataDir, 'library.sqlite')), () => Date.now());
    const jobs = await library.list();
    expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    for (const job of jobs) expect((await library.sentences(job.id)).length).toBeGreaterThan(0);
  }, 180_000);

  it('whose sender died is sent again only once its lease has gone stale', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-upload-stale-'));
    await fetch(`${emulator.url}/__admin/reset`, { method: 'POST' });
    await fault({ method: 'POST', path: '^/v2/upload$', kind: 'slow', delayMs: 40_000 });
    const sender = startCliProcess(
      ['transcribe', join(fixtures, 'press-statement.wav'), '--wait', '--json'],
      environment(dataDir),
    );
    await until(async () => (await requestLog()).some(isUpload), 'the upload');
    // Opened once the sender has made the library, so only it upgrades it.
    const db = openDatabase(join(dataDir, 'library.sqlite'));
    const lease = (): { upload_holder: string | null; upload_lease_until: number | null } | undefined =>
      db.prepare('SELECT upload_holder, upload_lease_until FROM transcripts').get() as
        { upload_holder: string | null; upload_lease_until: number | null } | undefined;
    await until(() => Promise.resolve(Boolean(lease()?.upload_holder)), 'the upload lease');
    sender.child.kill('SIGKILL');
    await sender.finished;
    // What the dead sender left: a lease nobody renews any more.
    const staleFrom = lease()!.upload_lease_until!;
    expect(staleFrom).toBeGreaterThan(Date.now());

    const next = await startCliProcess(['resume', '--wait', '--json'], environment(dataDir)).finished;
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject([{ status: 'completed' }]);
    const uploads = (await requestLog()).filter(isUpload);
    expect(uploads).toHaveLength(2);
    expect(uploads[1]).toMatchObject({ status: 200 });
    expect(uploads[1]!.at).toBeGreaterThanOrEqual(staleFrom);
    expect(lease()).toEqual({ upload_holder: null, upload_lease_until: null });
    db.close();
  }, 120_000);
});
