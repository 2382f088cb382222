import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { processingShares, WorkerPool } from './processing';
import { Api, fixture, poll } from './test-helpers';

function draws(count: number, model: { medianShare: number; spread: number; seed: string }): number[] {
  const next = processingShares(model);
  return Array.from({ length: count }, next);
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))]!;
}

describe('processing model: how long a loaded service takes', () => {
  const model = { medianShare: 0.27, spread: 0.35, seed: 'test' };

  it('draws the same times for the same seed and others for another seed', () => {
    expect(draws(50, model)).toEqual(draws(50, model));
    expect(draws(50, { ...model, seed: 'other' })).not.toEqual(draws(50, model));
  });

  it('spreads the times log-normally around the median share', () => {
    const shares = draws(20_000, model);
    // Quantiles of median × e^(σz): z at 5 % and 95 % is ∓1.645.
    expect(quantile(shares, 0.5)).toBeCloseTo(0.27, 2);
    expect(quantile(shares, 0.05)).toBeCloseTo(0.27 * Math.exp(-1.645 * 0.35), 2);
    expect(quantile(shares, 0.95)).toBeCloseTo(0.27 * Math.exp(1.645 * 0.35), 2);
    expect(Math.min(...shares)).toBeGreaterThan(0);
  });

  it('has a long tail: a few jobs take more than twice the median', () => {
    const shares = draws(20_000, model);
    const median = quantile(shares, 0.5);
    expect(quantile(shares, 0.99) / median).toBeGreaterThan(2.1);
    expect(Math.max(...shares) / median).toBeGreaterThan(3);
    // Skewed right: the mean sits above the median (e^(σ²/2) ≈ 1.063 times it).
    const mean = shares.reduce((sum, share) => sum + share, 0) / shares.length;
    expect(mean / median).toBeCloseTo(Math.exp(0.35 ** 2 / 2), 1);
  });

  it('without spread, every job takes the median share', () => {
    expect(new Set(draws(100, { ...model, spread: 0 }))).toEqual(new Set([0.27]));
  });
});

describe('WorkerPool: a limited number of transcripts at once', () => {
  it('queues work beyond its workers and starts it in arrival order as workers free up', () => {
    const pool = new WorkerPool(2);
    const started: number[] = [];
    const releases: (() => void)[] = [];
    for (let job = 0; job < 5; job++) {
      pool.take((release) => {
        started.push(job);
        releases[job] = release;
      });
    }
    expect(started).toEqual([0, 1]);
    expect([pool.active, pool.queued]).toEqual([2, 3]);
    releases[1]!();
    expect(started).toEqual([0, 1, 2]);
    // Freeing the same worker twice frees it once.
    releases[1]!();
    expect(started).toEqual([0, 1, 2]);
    releases[0]!();
    releases[2]!();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    releases[3]!();
    releases[4]!();
    expect([pool.active, pool.queued]).toEqual([0, 0]);
  });
});

describe('the emulator with a processing model', () => {
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  /** Submits three transcripts and watches their statuses until all are done. */
  async function watchThree(api: Api): Promise<{ snapshots: string[][]; completedAt: number[] }> {
    const audioUrl = await api.upload(fixture('press-statement.wav'));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await api.submit({ audio_url: audioUrl }));
    const snapshots: string[][] = [];
    const completedAt: number[] = [];
    await poll(async () => {
      const statuses = await Promise.all(
        ids.map(async (id) => (await api.get(`/v2/transcript/${id}`)).json.status as string),
      );
      snapshots.push(statuses);
      statuses.forEach((status, index) => {
        if (status === 'completed' && completedAt[index] === undefined) completedAt[index] = Date.now();
      });
      return statuses.every((status) => status === 'completed') ? true : undefined;
    }, 30_000);
    return { snapshots, completedAt };
  }

  it('keeps jobs queued beyond its workers and processes them one after another', async () => {
    emulator = await startEmulator({
      speed: 20,
      processing: { medianShare: 0.25, spread: 0, workers: 1, seed: 'queue' },
    });
    const { snapshots, completedAt } = await watchThree(Api.of(emulator));
    const processingAtOnce = snapshots.map((statuses) => statuses.filter((s) => s === 'processing').length);
    expect(Math.max(...processingAtOnce)).toBe(1);
    // While the first is processed, the others wait in the queue.
    expect(snapshots).toContainEqual(['processing', 'queued', 'queued']);
    expect(completedAt[0]!).toBeLessThanOrEqual(completedAt[1]!);
    expect(completedAt[1]!).toBeLessThanOrEqual(completedAt[2]!);
  });

  it('by default processes every job at once, as before', async () => {
    emulator = await startEmulator({ speed: 20 });
    const { snapshots } = await watchThree(Api.of(emulator));
    expect(snapshots).toContainEqual(['processing', 'processing', 'processing']);
  });

  it('refuses a model without workers', async () => {
    await expect(
      startEmulator({ processing: { medianShare: 0.25, spread: 0.3, workers: 0, seed: 'none' } }),
    ).rejects.toThrow();
  });
});
