import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { createCore, type Core } from '../app-core';
import { acceleratedClock } from '../../base/clock';

/**
 * A transcript fetched again from the service (a job resumed in 'fetching' after a restart, or
 * retried after a failure) never drops the corrections made on it: the scheduler saves the
 * service's words again, and the journalist's edits stay in force, with their history and undo.
 */
const speed = 200;
const interview = resolve(import.meta.dirname, '../../../../test/fixtures/interview-ferry-contract.wav');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());

function openCore(dataDir: string): Core {
  return createCore({
    dataDir,
    apiKey: () => emulator.options.key,
    transcriptionUrl: () => emulator.url,
    clock: acceleratedClock(speed),
  });
}

/** How many times the service was asked for a transcript's sentences since the log was cleared. */
async function sentenceFetches(remoteId: string): Promise<number> {
  const log = (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
    requests: { method: string; path: string; status: number }[];
  };
  return log.requests.filter(
    (r) => r.method === 'GET' && r.path === `/v2/transcript/${remoteId}/sentences` && r.status === 200,
  ).length;
}

/** A transcribed interview with two corrections: words retyped and a sentence given to a new speaker. */
async function correctedInterview(core: Core): Promise<{ id: string; remoteId: string; machine: string[] }> {
  const job = await core.scheduler.submit({
    source: { kind: 'file', path: interview },
    options: { speaker_labels: true },
    region: 'us',
  });
  await core.scheduler.idle();
  const done = (await core.library.get(job.id))!;
  expect(done.status).toBe('completed');
  const sentences = await core.library.sentences(job.id);
  expect(sentences.length).toBeGreaterThan(1);
  await core.library.edit(job.id, {
    kind: 'text',
    from: 0,
    count: 1,
    text: `${sentences[0]!.text} Councillor Kowalczyk agreed.`,
  });
  await core.library.edit(job.id, {
    kind: 'speaker',
    from: 1,
    count: 1,
    speaker: { newName: 'Harbour master' },
  });
  return { id: job.id, remoteId: done.remoteId!, machine: sentences.map((s) => s.text) };
}

describe('fetching a transcript again keeps its corrections', () => {
  it('a job resumed in "fetching" after a restart saves the service words again and keeps the edits, history and undo', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-refetch-resume-'));
    const first = openCore(dataDir);
    const { id, remoteId, machine } = await correctedInterview(first);
    const corrected = await first.library.sentences(id);
    // As if the app had died while saving the finished transcript.
    await first.library.updateJob(id, { status: 'fetching' });
    await first.close();
    await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });

    const second = openCore(dataDir);
    try {
      expect(await second.scheduler.resumeAll()).toBe(1);
      await second.scheduler.idle();
      expect((await second.library.get(id))?.status).toBe('completed');
      expect(await sentenceFetches(remoteId)).toBe(1);
      expect(await second.library.sentences(id)).toEqual(corrected);
      expect((await second.library.search('Kowalczyk')).total).toBe(1);
      expect((await second.library.history(id)).map((entry) => entry.undone)).toEqual([false, false]);
      expect((await second.library.get(id))?.corrections).toBe(2);

      await second.library.undo(id);
      await second.library.undo(id);
      expect((await second.library.sentences(id)).map((s) => s.text)).toEqual(machine);
      expect((await second.library.search('Kowalczyk')).total).toBe(0);
    } finally {
      await second.close();
    }
  }, 60_000);

  it('a retried job fetched again keeps the edits', async () => {
    const core = openCore(mkdtempSync(join(tmpdir(), 'verbatim-refetch-retry-')));
    try {
      const { id, remoteId } = await correctedInterview(core);
      const corrected = await core.library.sentences(id);
      await core.library.updateJob(id, { status: 'error', error: 'The connection dropped.' });
      await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });
      await core.scheduler.retry(id);
      await core.scheduler.idle();
      expect((await core.library.get(id))?.status).toBe('completed');
      expect(await sentenceFetches(remoteId)).toBe(1);
      expect(await core.library.sentences(id)).toEqual(corrected);
      expect((await core.library.correctionState(id)).undo).toBe('Gave a sentence to Harbour master');
    } finally {
      await core.close();
    }
  }, 60_000);
});
