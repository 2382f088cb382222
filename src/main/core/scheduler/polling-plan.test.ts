import { describe, expect, it } from 'vitest';
import { defaultPollingPolicy, firstCheckDelay, nextCheckDelay } from './polling-plan';

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
});
