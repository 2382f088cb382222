import type { Percentiles } from '../../../shared/catalog';

/**
 * The geometry of the small percentile charts on a model page: one bar per percentile, scaled
 * to a shared maximum so the endpoints of one model can be compared down a column. Numbers in,
 * numbers out: the component draws them as SVG attributes, never as markup.
 */

export const percentileKeys = ['p50', 'p75', 'p90', 'p99'] as const;

export interface PercentileBar {
  label: (typeof percentileKeys)[number];
  value: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PercentileChart {
  bars: PercentileBar[];
  /** The same numbers in words, for screen readers and for anyone who prefers text. */
  description: string;
}

export function percentileChart(
  stats: Percentiles,
  options: { width: number; height: number; max: number; unit: string; what: string },
): PercentileChart {
  const gap = 2;
  const barWidth = (options.width - gap * (percentileKeys.length - 1)) / percentileKeys.length;
  const scale = options.max > 0 ? options.height / options.max : 0;
  const bars = percentileKeys.map((label, index) => {
    const value = stats[label];
    // At least one pixel, so a measured zero is still visibly a bar.
    const height = Math.max(1, Math.min(options.height, value * scale));
    return { label, value, x: index * (barWidth + gap), y: options.height - height, width: barWidth, height };
  });
  const description = `${options.what}: ${bars.map((bar) => `${bar.label} ${formatNumber(bar.value)} ${options.unit}`).join(', ')}`;
  return { bars, description };
}

/** The largest p99 among endpoints, the shared top of their charts. */
export function sharedMaximum(stats: readonly (Percentiles | null | undefined)[]): number {
  return Math.max(0, ...stats.map((s) => s?.p99 ?? 0));
}

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

function formatNumber(value: number): string {
  return number.format(value);
}
