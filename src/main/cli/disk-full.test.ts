import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { cliEntry } from './cli-process.test-kit';

/**
 * A disk that fills up in the middle of a job, for real: the data folder is a small tmpfs
 * mounted in a private mount namespace (unshare), and a file fills it once the recording is
 * on the service. The command must say so and exit 1; once there is room, resume finishes it.
 */
const speed = 50;
const statement = resolve(import.meta.dirname, '../../../test/fixtures/press-statement.wav');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());

interface ServiceLog {
  requests: { method: string; path: string }[];
}

async function serviceRequests(): Promise<ServiceLog['requests']> {
  return ((await (await fetch(`${emulator.url}/__admin/requests`)).json()) as ServiceLog).requests;
}

describe('a disk that fills up during a transcription', () => {
  it('ends the command with a plain sentence and exit 1, and resume finishes the job once there is room', async () => {
    const work = mkdtempSync(join(tmpdir(), 'verbatim-disk-full-'));
    const dataDir = join(work, 'data');
    const fill = join(work, 'fill-now');
    // Polls of the finished job wait, so the disk fills between its creation and its saving.
    await fetch(`${emulator.url}/__admin/faults`, {
      method: 'POST',
      body: JSON.stringify({
        method: 'GET',
        path: '^/v2/transcript/[^/]+$',
        kind: 'slow',
        delayMs: 1500,
        count: 3,
      }),
    });
    const script = `
      set -u
      mkdir -p "$DATA"
      mount -t tmpfs -o size=2m tmpfs "$DATA"
      node --import tsx "$CLI" transcribe "$RECORDING" --wait --json > "$WORK/first.out" 2> "$WORK/first.err" &
      pid=$!
      while [ ! -e "$FILL" ]; do sleep 0.05; done
      dd if=/dev/zero of="$DATA/filler" bs=64k 2>/dev/null
      dd if=/dev/zero of="$DATA/filler-small" bs=4k 2>/dev/null
      wait $pid; echo $? > "$WORK/first.code"
      rm -f "$DATA/filler" "$DATA/filler-small"
      node --import tsx "$CLI" resume --wait --json > "$WORK/second.out" 2> "$WORK/second.err"; echo $? > "$WORK/second.code"
    `;
    writeFileSync(join(work, 'run.sh'), script);
    const child = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', join(work, 'run.sh')], {
      env: {
        ...process.env,
        DATA: dataDir,
        WORK: work,
        FILL: fill,
        CLI: cliEntry,
        RECORDING: statement,
        VERBATIM_DATA_DIR: dataDir,
        VERBATIM_API_KEY: emulator.options.key,
        VERBATIM_TRANSCRIPTION_URL: emulator.url,
        VERBATIM_TIME_SCALE: String(speed),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let shellErrors = '';
    child.stderr.on('data', (chunk: Buffer) => (shellErrors += chunk.toString()));
    const ended = new Promise<number | null>((resolveEnd) => child.on('close', resolveEnd));

    // Fill the disk once the service has the recording (and the job has stored its id).
    for (let tries = 0; tries < 400; tries++) {
      const created = (await serviceRequests()).some(
        (request) => request.method === 'POST' && request.path === '/v2/transcript',
      );
      if (created) break;
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 300));
    writeFileSync(fill, '');
    expect(await ended, shellErrors).toBe(0);

    const first = {
      code: readFileSync(join(work, 'first.code'), 'utf8').trim(),
      err: readFileSync(join(work, 'first.err'), 'utf8'),
    };
    expect(first.code, first.err).toBe('1');
    expect(first.err).toContain(`Could not save to the library in ${dataDir}: the disk is full.`);
    expect(first.err).toContain('Nothing is lost');
    expect(first.err).not.toMatch(/SqliteError|at .*\.ts:\d+/);

    const second = {
      code: readFileSync(join(work, 'second.code'), 'utf8').trim(),
      err: readFileSync(join(work, 'second.err'), 'utf8'),
    };
    expect(second.code, second.err).toBe('0');
    const jobs = JSON.parse(readFileSync(join(work, 'second.out'), 'utf8')) as { status: string }[];
    expect(jobs.map((job) => job.status)).toEqual(['completed']);
    // One recording, created once on the service.
    const creates = (await serviceRequests()).filter(
      (request) => request.method === 'POST' && request.path === '/v2/transcript',
    );
    expect(creates).toHaveLength(1);
    expect(existsSync(join(work, 'first.out'))).toBe(true);
  }, 60_000);
});
