import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../app-core';
import type { FetchLike } from '../http/http-client';
import { FakeClock } from '../../base/fake-clock.test-kit';

/**
 * The scheduler's and the core's timers belong to their lifetime: once disposed (the app
 * quitting, a web host closing), no status check, back-off or ownership poll is left waiting.
 */
const cores: Core[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(cores.splice(0).map((core) => core.close()));
});

/** A service that creates every transcript and always says it is still being processed. */
const processingService: FetchLike = (input, init) => {
  const url = new URL(input);
  if (url.pathname === '/v2/transcript' && init.method === 'POST')
    return Promise.resolve(Response.json({ id: 'remote-1', status: 'queued', audio_url: 'x' }));
  if (url.pathname.startsWith('/v2/transcript/'))
    return Promise.resolve(Response.json({ id: 'remote-1', status: 'processing', audio_url: 'x' }));
  // The recording's first bytes (the length estimate): not there.
  return Promise.resolve(new Response('', { status: 404 }));
};

function coreOn(clock: FakeClock): Core {
  const core = createCore({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-lifetime-')),
    apiKey: () => 'key',
    transcriptionUrl: () => 'http://transcription.invalid',
    clock,
    fetch: processingService,
  });
  cores.push(core);
  return core;
}

describe("the scheduler's lifetime", () => {
  it('leaves no status check waiting once disposed, and drives nothing after', async () => {
    const clock = new FakeClock();
    const { scheduler, library } = coreOn(clock);
    const job = await scheduler.submit({
      source: { kind: 'url', url: 'https://recordings.example/interview.mp3' },
      options: {},
      region: 'us',
    });
    // Created remotely, then waiting on the clock for its first status check.
    await vi.waitFor(async () => expect((await library.get(job.id))?.status).toBe('queued'));
    await vi.waitFor(() => expect(clock.pending).toBe(1));

    scheduler.dispose();
    scheduler.dispose();
    await scheduler.idle();
    expect(clock.pending).toBe(0);
    // Nothing stored changed: the next start resumes it.
    expect((await library.get(job.id))?.status).toBe('queued');
    expect(await scheduler.resumeAll()).toBe(1);
    await clock.advance(3_600_000);
    expect(clock.pending).toBe(0);
    expect((await library.get(job.id))?.checks).toBe(0);
  });

  it('stops a wait for jobs another process drives when disposed', async () => {
    const clock = new FakeClock();
    const { scheduler, library, ownership } = coreOn(clock);
    const job = await scheduler.submit({
      source: { kind: 'url', url: 'https://recordings.example/interview.mp3' },
      options: {},
      region: 'us',
    });
    await vi.waitFor(async () => expect((await library.get(job.id))?.status).toBe('queued'));
    await scheduler.stop();
    // Another process sends the folder's jobs now: this one only waits for them.
    ownership.release();
    const waiting = scheduler.settled([job.id]);
    await vi.waitFor(() => expect(clock.pending).toBe(1));
    scheduler.dispose();
    await expect(waiting).rejects.toThrow('aborted');
    expect(clock.pending).toBe(0);
  });
});

describe("the core's lifetime", () => {
  it('clears its ownership poll when closed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const core = coreOn(new FakeClock());
    expect(vi.getTimerCount()).toBe(1);
    cores.splice(cores.indexOf(core), 1);
    await core.close();
    expect(vi.getTimerCount()).toBe(0);
  });
});
