import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultPollingPolicy, firstCheckDelay, nextCheckDelay, queuedCheckDelay } from './polling-plan';

describe('the polling plan', () => {
  it('waits for most of the expected processing time before the first look', () => {
    expect(firstCheckDelay(30 * 60_000)).toBe(6 * 60_000);
    expect(firstCheckDelay(10_000)).toBe(defaultPollingPolicy.minDelayMs);
    expect(firstCheckDelay(null)).toBe(defaultPollingPolicy.minDelayMs);
    expect(firstCheckDelay(5 * 3600_000)).toBe(10 * 60_000);
  });

  it('backs off geometrically and never past the cap', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((checks) => nextCheckDelay(checks, null));
    expect(delays[0]).toBe(3000);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect(Math.max(...delays)).toBe(defaultPollingPolicy.maxDelayMs);
  });

  it('keeps a 30-minute recording to a handful of looks', () => {
    // The service takes roughly 15-30% of the audio's length; simulate the slow end.
    const audio = 30 * 60_000;
    const done = 0.3 * audio;
    let time = firstCheckDelay(audio);
    let checks = 1;
    while (time < done) time += nextCheckDelay(checks++, audio);
    expect(checks).toBeLessThan(8);
  });

  it('spaces the looks at a queued transcript by a tenth of its audio, never closer than the usual next look', () => {
    expect(queuedCheckDelay(1, 30 * 60_000)).toBe(3 * 60_000);
    expect(queuedCheckDelay(1, null)).toBe(nextCheckDelay(1, null));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.option(fc.integer({ min: 1, max: 10 * 3600_000 })),
        (checks, audio) => {
          const queued = queuedCheckDelay(checks, audio);
          expect(queued).toBeGreaterThanOrEqual(nextCheckDelay(checks, audio));
          expect(queued).toBeLessThanOrEqual(10 * 60_000);
        },
      ),
    );
  });

  it('keeps a 30-minute recording that waits 20 minutes in a busy queue to a handful of looks', () => {
    const audio = 30 * 60_000;
    const startsAt = 20 * 60_000;
    const done = startsAt + 0.3 * audio;
    let time = firstCheckDelay(audio);
    let checks = 1;
    while (time < done) time += (time < startsAt ? queuedCheckDelay : nextCheckDelay)(checks++, audio);
    expect(checks).toBeLessThan(15);
    expect(time - done).toBeLessThan(3 * 60_000);
  });
});
