import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../test/emulator/server';
import { composeServices, type ComposedServices } from './compose';
import { createCore } from './core/app-core';
import { clockOf, systemClock, type Clock } from './base/clock';
import type { FetchLike } from './core/http/http-client';
import { MemorySecrets } from './core/secrets/secret-store';

/**
 * Start-up order: the settings are read before any job is sent. A job left in flight in a data
 * folder whose Settings name another service address must be asked about at that address, never
 * at the default one (the real service, which would also receive the key).
 */
const recording = resolve(import.meta.dirname, '../../test/fixtures/press-statement.wav');
let emulator: RunningEmulator;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  // Real-time processing: the job is still in flight when the first process stops.
  emulator = await startEmulator({ port: 0, speed: 1 });
});
afterAll(() => emulator.close());
afterEach(async () => {
  for (const services of open.splice(0).reverse()) await services.close();
});

/** A data folder with Settings naming the emulator, and a job created there but not finished. */
async function folderWithJobInFlight(): Promise<{ dataDir: string; jobId: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-startup-'));
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ transcriptionUrlUs: emulator.url }));
  const first = createCore({
    dataDir,
    apiKey: () => emulator.options.key,
    transcriptionUrl: () => emulator.url,
  });
  try {
    const job = await first.scheduler.submit({
      source: { kind: 'file', path: recording },
      options: {},
      region: 'us',
    });
    for (;;) {
      const stored = await first.library.get(job.id);
      if (stored?.remoteId) break;
      await systemClock.sleep(20);
    }
    return { dataDir, jobId: job.id };
  } finally {
    // Quit mid-job: nothing stored changes, so the next start resumes it.
    await first.close();
  }
}

/**
 * Every request the core sends, in order. Only the emulator is really reached: a request to any
 * other address (the default, real service) is recorded and refused like an unreachable host.
 */
function recordingFetch(): { fetch: FetchLike; requests: string[] } {
  const requests: string[] = [];
  return {
    requests,
    fetch: (input, init) => {
      requests.push(input);
      if (input.startsWith(emulator.url)) return fetch(input, init);
      return Promise.reject(new TypeError('fetch failed'));
    },
  };
}

/** The app was closed for an hour: the job's next status check is overdue at start. */
const anHourLater: Clock = clockOf({ ...systemClock, now: () => systemClock.now() + 3_600_000 });

function compose(dataDir: string, fetchLike: FetchLike): ComposedServices {
  const services = composeServices({
    dataDir,
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets({ transcriptionKey: emulator.options.key }),
    clock: anHourLater,
    fetch: fetchLike,
  });
  open.push(services);
  return services;
}

describe('start-up order', () => {
  it('resumes a job left in flight at the address Settings name, never at the default one', async () => {
    const { dataDir, jobId } = await folderWithJobInFlight();
    const { fetch: fetchLike, requests } = recordingFetch();
    const services = compose(dataDir, fetchLike);
    expect(await services.start()).toBe(1);
    await expect.poll(() => requests.length, { timeout: 5000 }).toBeGreaterThan(0);
    const remoteId = (await services.core.library.get(jobId))?.remoteId;
    expect(requests[0]).toBe(`${emulator.url}/v2/transcript/${remoteId}`);
    await services.core.scheduler.stop();
    expect(requests.filter((url) => !url.startsWith(emulator.url))).toEqual([]);
  });

  it('holds a job back until the settings are read, however early the scheduler is asked to resume', async () => {
    const { dataDir } = await folderWithJobInFlight();
    const { fetch: fetchLike, requests } = recordingFetch();
    const services = compose(dataDir, fetchLike);
    // What the composition roots did before: resume at once, the settings still being read.
    expect(await services.core.scheduler.resumeAll()).toBe(1);
    await expect.poll(() => requests.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(requests[0]!.startsWith(emulator.url)).toBe(true);
    await services.core.scheduler.stop();
    expect(requests.filter((url) => !url.startsWith(emulator.url))).toEqual([]);
  });
});
