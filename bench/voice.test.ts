import { describe, expect, it } from 'vitest';
import { judge, type RunInfo } from './bench-kit';
import { bargeInMeasurement, bargeInTrials } from './voice';

const run: RunInfo = {
  commit: 'b'.repeat(40),
  dirty: false,
  date: '2026-11-20T10:00:00.000Z',
  machine: { cpus: 2, cpuModel: 'Test CPU', memoryGiB: 8, node: 'v20.0.0', platform: 'linux x64' },
};

describe('the barge-in benchmark', () => {
  it('times each trial from its own start to silence, and a session that flushes passes', async () => {
    const trials = await bargeInTrials({ trials: 5, replyMs: 500, tellSession: true });
    expect(trials.missedFlushes).toBe(0);
    expect(trials.latencies).toHaveLength(5);
    for (const latency of trials.latencies) {
      expect(latency).toBeGreaterThanOrEqual(0);
      expect(latency).toBeLessThan(50);
    }
  });

  it('counts every trial without a flush and times how long the queue talks on, never below zero', async () => {
    const trials = await bargeInTrials({ trials: 3, replyMs: 300, tellSession: false });
    expect(trials.missedFlushes).toBe(3);
    // About the reply left in the queue (300 ms less the 5 ms before the barge-in) plus the
    // device's 100 ms buffer, in every trial, not just the first.
    for (const latency of trials.latencies) {
      expect(latency).toBeGreaterThan(250);
      expect(latency).toBeLessThan(1000);
    }
  });

  it('fails when any trial missed its flush, however quick the others were', () => {
    const quick = { latencies: Array.from({ length: 200 }, () => 0.1), missedFlushes: 0 };
    const baseline = { latencies: [3100, 3100], missedFlushes: 2 };
    expect(judge(bargeInMeasurement(quick, baseline), 'voice', run).met).toBe(true);
    const oneMissed = judge(bargeInMeasurement({ ...quick, missedFlushes: 1 }, baseline), 'voice', run);
    expect(oneMissed.met).toBe(false);
    expect(oneMissed.verdicts.find((verdict) => !verdict.met)?.target).toBe('missedFlushes ≤ 0');
  });
});
