import { describe, expect, it } from 'vitest';
import { percentileChart, sharedMaximum } from './percentile-chart';

describe('percentile charts', () => {
  const stats = { p50: 400, p75: 600, p90: 900, p99: 1200 };

  it('draws one bar per percentile, scaled to the shared maximum, standing on the baseline', () => {
    const chart = percentileChart(stats, { width: 62, height: 24, max: 2400, unit: 'ms', what: 'Latency' });
    expect(chart.bars.map((bar) => bar.label)).toEqual(['p50', 'p75', 'p90', 'p99']);
    expect(chart.bars.map((bar) => bar.height)).toEqual([4, 6, 9, 12]);
    for (const bar of chart.bars) expect(bar.y + bar.height).toBe(24);
    expect(chart.bars.map((bar) => bar.x)).toEqual([0, 16, 32, 48]);
    expect(chart.bars[0]?.width).toBe(14);
  });

  it('keeps a zero visible, clips at the top, and says the numbers in words', () => {
    const chart = percentileChart(
      { p50: 0, p75: 10, p90: 20, p99: 5000 },
      { width: 40, height: 20, max: 100, unit: 'tokens/s', what: 'Throughput' },
    );
    expect(chart.bars[0]?.height).toBe(1);
    expect(chart.bars[3]?.height).toBe(20);
    expect(chart.description).toBe(
      'Throughput: p50 0 tokens/s, p75 10 tokens/s, p90 20 tokens/s, p99 5,000 tokens/s',
    );
  });

  it('takes the largest p99 as the shared maximum, ignoring endpoints without numbers', () => {
    expect(sharedMaximum([stats, null, { ...stats, p99: 3000 }, undefined])).toBe(3000);
    expect(sharedMaximum([])).toBe(0);
  });
});
