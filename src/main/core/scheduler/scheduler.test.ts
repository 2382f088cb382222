import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { inspectRecording, uploadSource } from '../transcription/recording-file';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { createCore, type Core } from '../app-core';
import { acceleratedClock } from '../../base/clock';
import type { FetchLike } from '../http/http-client';
import type { JobRecord } from '../library/library';
import { LibraryDatabase } from '../library/library-database';
import type { JobStatus } from '../../../shared/library';

/**
 * The scheduler against the service emulator, on a clock running as fast as the emulator's,
 * so minutes of processing and polling take a fraction of a second.
 */
const speed = 400;
const fixtures = resolve(import.meta.dirname, '../../../../test/fixtures');
const interview = join(fixtures, 'interview-ferry-contract.wav');
const statement = join(fixtures, 'press-statement.wav');
let emulator: RunningEmulator;
const cores: Core[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.close()));
  await admin('DELETE', '/__admin/faults');
  await admin('DELETE', '/__admin/requests');
});

async function admin(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

async function requests(): Promise<{ method: string; path: string; status: number }[]> {
  return (
    (await admin('GET', '/__admin/requests')) as {
      requests: { method: string; path: string; status: number }[];
    }
  ).requests;
}

function core(
  dataDir = mkdtempSync(join(tmpdir(), 'verbatim-scheduler-')),
  options: { key?: string; fetch?: FetchLike } = {},
) {
  const history = new Map<string, JobStatus[]>();
  const progress: number[] = [];
  const created = createCore({
    dataDir,
    apiKey: () => options.key ?? emulator.options.key,
    transcriptionUrl: () => emulator.url,
    clock: acceleratedClock(speed),
    transientRetryMs: 2_000,
    requestsPerSecond: 50,
    fetch: options.fetch,
    onJob: (job: JobRecord) => {
      const seen = history.get(job.id) ?? [];
      if (seen.at(-1) !== job.status) seen.push(job.status);
      history.set(job.id, seen);
    },
    onUploadProgress: (_id, sent) => progress.push(sent),
  });
  cores.push(created);
  return { core: created, history, progress, dataDir };
}

describe('the scheduler', () => {
  it('takes a recording from upload to a stored, searchable transcript', async () => {
    const { core: c, history, progress } = core();
    const job = await c.scheduler.submit({
      source: { kind: 'file', path: interview },
      options: { speaker_labels: true },
      region: 'us',
    });
    expect(job.status).toBe('uploading');
    await c.scheduler.idle();
    const done = await c.library.get(job.id);
    expect(done).toMatchObject({
      status: 'completed',
      title: 'interview-ferry-contract',
      languageCode: expect.any(String) as string,
    });
    expect(history.get(job.id)).toEqual(
      expect.arrayContaining(['uploading', 'submitting', 'fetching', 'completed']),
    );
    expect(history.get(job.id)?.indexOf('uploading')).toBe(0);
    expect(progress.at(-1)).toBe(done?.bytesTotal);
    const sentences = await c.library.sentences(job.id);
    expect(sentences.length).toBeGreaterThan(5);
    expect(new Set(sentences.map((s) => s.speaker))).toEqual(new Set(['A', 'B']));
    expect((await c.library.paragraphs(job.id)).length).toBeGreaterThan(0);
    const hits = await c.library.search('ferry contract');
    expect(hits.hits[0]).toMatchObject({ transcriptId: job.id });
  });

  it('stores the service error of a recording that cannot be transcribed', async () => {
    const { core: c } = core();
    const job = await c.scheduler.submit({
      source: { kind: 'file', path: join(fixtures, 'silence.wav') },
      options: {},
      region: 'us',
    });
    await c.scheduler.idle();
    const failed = await c.library.get(job.id);
    expect(failed?.status).toBe('error');
    expect(failed?.error).toBeTruthy();
  });

  it('refuses bad options and bad files before any job exists', async () => {
    const { core: c } = core();
    await expect(
      c.scheduler.submit({
        source: { kind: 'file', path: interview },
        options: { content_safety_confidence: 5 },
        region: 'us',
      }),
    ).rejects.toThrow('content_safety_confidence');
    const notAudio = join(mkdtempSync(join(tmpdir(), 'verbatim-bad-')), 'notes.mp3');
    writeFileSync(notAudio, 'just some notes');
    await expect(
      c.scheduler.submit({ source: { kind: 'file', path: notAudio }, options: {}, region: 'us' }),
    ).rejects.toThrow('audio or video');
    await expect(
      c.scheduler.submit({ source: { kind: 'file', path: '/nowhere/x.wav' }, options: {}, region: 'us' }),
    ).rejects.toThrow('not found');
    expect(await c.library.list()).toEqual([]);
  });

  it('transcribes a URL the service fetches itself', async () => {
    // An upload URL of the emulator is a URL the service can fetch.
    const { core: c } = core();
    const uploadUrl = await c.clientFor('us').upload(uploadSource(await inspectRecording(statement)));
    const job = await c.scheduler.submit({
      source: { kind: 'url', url: uploadUrl },
      options: {},
      region: 'us',
    });
    expect(job.status).toBe('submitting');
    await c.scheduler.idle();
    expect((await c.library.get(job.id))?.status).toBe('completed');
  });

  it('cancels a job while it waits', async () => {
    const { core: c } = core();
    const job = await c.scheduler.submit({
      source: { kind: 'file', path: interview },
      options: {},
      region: 'us',
    });
    const cancelled = await c.scheduler.cancel(job.id);
    expect(cancelled.status).toBe('cancelled');
    await c.scheduler.idle();
    expect((await c.library.get(job.id))?.status).toBe('cancelled');
    const retried = await c.scheduler.retry(job.id);
    expect(retried.status).not.toBe('cancelled');
    await c.scheduler.idle();
    expect((await c.library.get(job.id))?.status).toBe('completed');
  });

  it('resumes an unfinished job after a restart', async () => {
    const first = core();
    const job = await first.core.scheduler.submit({
      source: { kind: 'file', path: statement },
      options: {},
      region: 'us',
    });
    // Stop as soon as the service has the job: the app quits while it is processing.
    for (let i = 0; i < 200 && !(await first.core.library.get(job.id))?.remoteId; i++)
      await new Promise((r) => setTimeout(r, 5));
    await first.core.close();
    cores.splice(cores.indexOf(first.core), 1);
    expect(['queued', 'processing']).toContain((await reopened(first.dataDir)).status);

    const second = core(first.dataDir);
    expect(await second.core.scheduler.resumeAll()).toBe(1);
    await second.core.scheduler.idle();
    expect((await second.core.library.get(job.id))?.status).toBe('completed');

    async function reopened(dataDir: string): Promise<JobRecord> {
      const peek = core(dataDir);
      const record = (await peek.core.library.get(job.id))!;
      await peek.core.close();
      cores.splice(cores.indexOf(peek.core), 1);
      return record;
    }
  });

  it('finds a transcript created just before a crash instead of creating it twice', async () => {
    const { core: c, dataDir } = core();
    const client = c.clientFor('us');
    const uploadUrl = await client.upload(uploadSource(await inspectRecording(statement)));
    // The crash: the job was stored as submitting with its upload URL, and the POST reached the
    // service, but the process died before the remote id was saved.
    const job = await c.library.createJob({
      id: 'crashed',
      title: 'Statement',
      sourceKind: 'file',
      source: statement,
      audioPath: statement,
      region: 'us',
      options: {},
      status: 'submitting',
    });
    await c.library.updateJob(job.id, { uploadUrl });
    const remote = await client.create({ audio_url: uploadUrl });
    await c.close();
    cores.splice(cores.indexOf(c), 1);
    await admin('DELETE', '/__admin/requests');

    const restarted = core(dataDir);
    await restarted.core.scheduler.resumeAll();
    await restarted.core.scheduler.idle();
    const done = await restarted.core.library.get(job.id);
    expect(done).toMatchObject({ status: 'completed', remoteId: remote.id });
    expect((await requests()).filter((r) => r.method === 'POST' && r.path === '/v2/transcript')).toEqual([]);
  });

  it('gives two jobs of one URL a transcript each when one creation fails while the answer to the other is on its way', async () => {
    // Job B's creation reaches the service, but its answer (and so its saved remote id) is held
    // back; job A's creation fails, so A looks in the service's list for a transcript of the
    // same URL made before its answer was lost. B's looks unclaimed there: A must not take it.
    let creations = 0;
    let listed = false;
    let releaseAnswer = (): void => {};
    const answerHeld = new Promise<void>((resolve) => {
      releaseAnswer = resolve;
    });
    const throughHoldingB: FetchLike = async (input, init) => {
      const { pathname } = new URL(input);
      if (init.method === 'POST' && pathname === '/v2/transcript') {
        creations += 1;
        if (creations === 1) {
          const answer = await fetch(input, init);
          await Promise.race([answerHeld, new Promise((resolve) => setTimeout(resolve, 3_000))]);
          return answer;
        }
        if (!listed) return Response.json({ error: 'Service busy' }, { status: 503 });
      }
      const answer = await fetch(input, init);
      if (init.method === 'GET' && pathname === '/v2/transcript') {
        listed = true;
        releaseAnswer();
      }
      return answer;
    };
    const { core: c } = core(undefined, { fetch: throughHoldingB });
    const url = await c.clientFor('us').upload(uploadSource(await inspectRecording(statement)));
    const b = await c.scheduler.submit({
      source: { kind: 'url', url },
      title: 'B',
      options: {},
      region: 'us',
    });
    await vi.waitFor(() => expect(creations).toBe(1));
    const a = await c.scheduler.submit({
      source: { kind: 'url', url },
      title: 'A',
      options: {},
      region: 'us',
    });
    await c.scheduler.idle();

    const [doneA, doneB] = [await c.library.get(a.id), await c.library.get(b.id)];
    expect(listed).toBe(true);
    expect(doneA).toMatchObject({ status: 'completed', error: null });
    expect(doneB).toMatchObject({ status: 'completed', error: null });
    expect(doneA?.remoteId).not.toBe(doneB?.remoteId);
  });

  it('rides out every fault the service can throw at it', async () => {
    const { core: c } = core();
    await admin('POST', '/__admin/faults', [
      { method: 'POST', path: '^/v2/upload$', kind: 'status', status: 503, count: 1 },
      { method: 'POST', path: '^/v2/transcript$', kind: 'status', status: 429, retryAfter: '1', count: 2 },
      { method: 'GET', path: '^/v2/transcript/[^/]+$', kind: 'status', status: 500, count: 1 },
      { method: 'GET', path: '^/v2/transcript/[^/]+$', kind: 'reset', count: 1 },
      { method: 'GET', path: '^/v2/transcript/[^/]+$', kind: 'malformed', count: 1 },
      { method: 'GET', path: '/sentences$', kind: 'status', status: 504, count: 1 },
      { method: 'GET', path: '/paragraphs$', kind: 'slow', delayMs: 300, count: 1 },
    ]);
    const job = await c.scheduler.submit({
      source: { kind: 'file', path: statement },
      options: {},
      region: 'us',
    });
    await c.scheduler.idle();
    expect((await c.library.get(job.id))?.status).toBe('completed');
    const log = await requests();
    expect(
      log.filter((r) => r.method === 'POST' && r.path === '/v2/transcript' && r.status === 200),
    ).toHaveLength(1);
    expect(log.some((r) => r.status === 429)).toBe(true);
  });

  it('marks a job failed, with the service message, when the key is refused', async () => {
    const { core: c } = core(undefined, { key: 'wrong-key' });
    const job = await c.scheduler.submit({
      source: { kind: 'file', path: statement },
      options: {},
      region: 'us',
    });
    await c.scheduler.idle();
    const failed = await c.library.get(job.id);
    expect(failed?.status).toBe('error');
    expect(failed?.error).toMatch(/API key/);
  });

  it('never fails a finished job because its save did not go through: it says so and saves again', async () => {
    const failures: string[] = [];
    let blocked = false;
    const created: Core = createCore({
      dataDir: mkdtempSync(join(tmpdir(), 'verbatim-scheduler-')),
      apiKey: () => emulator.options.key,
      transcriptionUrl: () => emulator.url,
      clock: acceleratedClock(speed),
      transientRetryMs: 2_000,
      requestsPerSecond: 50,
      // The service has finished: now the library cannot be written for a moment (as when the
      // disk is full or another program holds the file), so the save fails for real.
      onJob: (job) => {
        if (job.status !== 'fetching' || blocked) return;
        blocked = true;
        const connection = LibraryDatabase.connectionOf(created.database);
        connection.pragma('query_only = ON');
        setTimeout(() => connection.pragma('query_only = OFF'), 300);
      },
      onStorageFailure: (_id, message) => failures.push(message),
    });
    cores.push(created);
    const job = await created.scheduler.submit({
      source: { kind: 'file', path: statement },
      options: {},
      region: 'us',
    });
    await created.scheduler.idle();
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toMatch(/readonly/);
    expect(await created.library.get(job.id)).toMatchObject({ status: 'completed', error: null });
    expect((await created.library.sentences(job.id)).length).toBeGreaterThan(0);
  });

  it.each([
    [
      'nothing listens at the address',
      'http://127.0.0.1:1',
      /Nothing answers at the transcription service's address \(127\.0\.0\.1:1: connection refused\)/,
    ],
    [
      'the host does not exist',
      'http://verbatim-nowhere.invalid',
      /address \(verbatim-nowhere\.invalid\) cannot be found/,
    ],
  ])(
    'stops a step after a few tries when %s, keeps the job, and resumes it once the address works',
    async (_case, address, message) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-scheduler-'));
      let url = address;
      const created = createCore({
        dataDir,
        apiKey: () => emulator.options.key,
        transcriptionUrl: () => url,
        clock: acceleratedClock(speed),
        transientRetryMs: 2_000,
        requestsPerSecond: 50,
      });
      cores.push(created);
      const job = await created.scheduler.submit({
        source: { kind: 'file', path: statement },
        options: {},
        region: 'us',
      });
      await created.scheduler.idle();
      const stopped = await created.library.get(job.id);
      expect(stopped?.status).toBe('uploading');
      expect(stopped?.error).toMatch(message);
      expect(stopped?.error).toContain('it will be tried again at the next start or resume');
      url = emulator.url;
      expect(await created.scheduler.resumeAll()).toBe(1);
      await created.scheduler.idle();
      expect(await created.library.get(job.id)).toMatchObject({ status: 'completed', error: null });
    },
  );
});
