import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, arch, cpus, platform, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/**
 * Every benchmark measures Verbatim against a baseline run in the same process, on the same
 * machine, and reports the ratio: absolute times on a 2-core CI box mean little, ratios travel.
 *
 * A benchmark hands back a Measurement: what it measured (the statistic is named in the label),
 * the baseline it ran, and its targets as data. Whether a target is met is never written by a
 * benchmark: `judge` computes it from the targets, so a figure that misses its target fails.
 */

export const comparisons = ['<', '<=', '>=', '>'] as const;
export type Comparison = (typeof comparisons)[number];

const targetSchema = z.discriminatedUnion('of', [
  /** A bound on Verbatim's own figure; `statistic` must be the one measured. */
  z.object({
    of: z.literal('ours'),
    statistic: z.string(),
    comparison: z.enum(comparisons),
    threshold: z.number(),
    unit: z.string(),
  }),
  /** A bound on ours / baseline. */
  z.object({ of: z.literal('ratio'), comparison: z.enum(comparisons), threshold: z.number() }),
  /** A bound on ours − baseline, in the measurement's unit. */
  z.object({
    of: z.literal('difference'),
    comparison: z.enum(comparisons),
    threshold: z.number(),
    unit: z.string(),
  }),
  /** A bound on a figure the benchmark recorded in its notes (memory growth, jobs lost…). */
  z.object({
    of: z.literal('note'),
    note: z.string(),
    comparison: z.enum(comparisons),
    threshold: z.number(),
    unit: z.string().optional(),
  }),
]);
export type Target = z.infer<typeof targetSchema>;

export type Notes = Record<string, number | string>;

export interface Measurement {
  /** The label, naming the statistic measured (e.g. "search: p95 query time…"). */
  name: string;
  /** The statistic `ours` and `baseline` are: 'p95', 'median', 'mean', 'one run'… */
  statistic: string;
  unit: string;
  ours: number;
  /** The same statistic for the baseline, run in the same process. */
  baseline: number;
  /** What the baseline is, in words. */
  baselineLabel: string;
  /** Empty: the figure is reported, with nothing to meet. */
  targets: Target[];
  notes?: Notes;
}

const machineSchema = z.object({
  cpus: z.number().int().positive(),
  cpuModel: z.string(),
  memoryGiB: z.number(),
  node: z.string(),
  platform: z.string(),
});
const runInfoSchema = z.object({
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  /** Tracked files differed from the commit when the benchmark ran. */
  dirty: z.boolean(),
  date: z.string(),
  machine: machineSchema,
});
export type RunInfo = z.infer<typeof runInfoSchema>;

/** JSON has no Infinity or NaN: a figure that could not be measured is stored as null. */
const figure = z.number().nullable();
const benchResultSchema = z.object({
  suite: z.string(),
  name: z.string(),
  statistic: z.string(),
  unit: z.string(),
  ours: figure,
  baseline: figure,
  baselineLabel: z.string(),
  ratio: figure,
  targets: z.array(targetSchema),
  verdicts: z.array(z.object({ target: z.string(), value: figure, met: z.boolean() })),
  /** null when there is no target. */
  met: z.boolean().nullable(),
  notes: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
  run: runInfoSchema,
});
export type BenchResult = z.infer<typeof benchResultSchema>;
const resultsFileSchema = z.object({ results: z.array(benchResultSchema) });

const symbols: Record<Comparison, string> = { '<': '<', '<=': '≤', '>=': '≥', '>': '>' };

export function describeTarget(target: Target): string {
  const bound = `${symbols[target.comparison]} ${target.threshold}`;
  switch (target.of) {
    case 'ours':
      return `${target.statistic} ${bound} ${target.unit}`;
    case 'ratio':
      return `ratio ${bound}`;
    case 'difference':
      return `ours − baseline ${bound} ${target.unit}`;
    case 'note':
      return `${target.note} ${bound}${target.unit ? ` ${target.unit}` : ''}`;
  }
}

function compare(value: number, comparison: Comparison, threshold: number): boolean {
  if (!Number.isFinite(value)) return false;
  switch (comparison) {
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '>=':
      return value >= threshold;
    case '>':
      return value > threshold;
  }
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/**
 * The one place a verdict is made: each target against the figure it names. A figure that
 * could not be measured (NaN, Infinity) meets nothing. A target on a statistic other than the
 * one measured, or on a note the benchmark did not record, is a benchmark bug and throws.
 */
export function judge(measurement: Measurement, suite: string, run: RunInfo): BenchResult {
  const { name, statistic, ours, baseline, targets, notes } = measurement;
  if (!name.toLowerCase().includes(statistic.toLowerCase())) {
    throw new Error(`Benchmark "${name}" measures the ${statistic} but its label does not say so`);
  }
  const ratio = ours / baseline;
  const verdicts = targets.map((target) => {
    let value: number;
    switch (target.of) {
      case 'ours':
        if (target.statistic !== statistic) {
          throw new Error(
            `Benchmark "${name}" measures the ${statistic} but its target is on the ${target.statistic}`,
          );
        }
        if (target.unit !== measurement.unit) {
          throw new Error(`Benchmark "${name}" is in ${measurement.unit} but its target in ${target.unit}`);
        }
        value = ours;
        break;
      case 'ratio':
        value = ratio;
        break;
      case 'difference':
        value = ours - baseline;
        break;
      case 'note': {
        const noted = notes?.[target.note];
        if (typeof noted !== 'number') {
          throw new Error(`Benchmark "${name}" has a target on "${target.note}" but no such figure`);
        }
        value = noted;
        break;
      }
    }
    return {
      target: describeTarget(target),
      value: finite(value),
      met: compare(value, target.comparison, target.threshold),
    };
  });
  return {
    suite,
    ...measurement,
    ours: finite(ours),
    baseline: finite(baseline),
    ratio: finite(ratio),
    verdicts,
    met: verdicts.length === 0 ? null : verdicts.every((verdict) => verdict.met),
    run,
  };
}

const repositoryRoot = join(import.meta.dirname, '..');

/** The commit (and whether tracked files differ from it), the date, and the machine. */
export function runInfo(date = new Date()): RunInfo {
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: repositoryRoot, encoding: 'utf8' }).trim();
  let commit: string;
  try {
    commit = git('rev-parse', 'HEAD');
  } catch {
    throw new Error('The benchmarks record the commit they ran on: run them from a git checkout.');
  }
  const [cpu] = cpus();
  return {
    commit,
    dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
    date: date.toISOString(),
    machine: {
      cpus: availableParallelism(),
      cpuModel: cpu?.model.trim() ?? 'unknown',
      memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
      node: process.version,
      platform: `${platform()} ${arch()}`,
    },
  };
}

export const resultsPath = join(import.meta.dirname, 'results.json');

/** The committed results; throws on a file that is not in the current shape. */
export function readResults(path = resultsPath): BenchResult[] {
  return resultsFileSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).results;
}

/**
 * Writes `fresh` into the results file: every earlier result of a suite that just ran is
 * replaced (so a renamed benchmark leaves no stale row), the other suites' results are kept,
 * and the file is ordered as `suiteOrder`. Entries in an older shape (without their run) are
 * dropped: a figure that cannot be traced to a commit and a machine is not evidence.
 */
export function saveResults(fresh: BenchResult[], suiteOrder: string[], path = resultsPath): BenchResult[] {
  const ran = new Set(fresh.map((result) => result.suite));
  const kept: BenchResult[] = [];
  if (existsSync(path)) {
    const file = JSON.parse(readFileSync(path, 'utf8')) as { results?: unknown[] };
    for (const entry of file.results ?? []) {
      const parsed = benchResultSchema.safeParse(entry);
      if (parsed.success && !ran.has(parsed.data.suite)) kept.push(parsed.data);
    }
  }
  const rank = (result: BenchResult): number => {
    const index = suiteOrder.indexOf(result.suite);
    return index < 0 ? suiteOrder.length : index;
  };
  // Array.sort is stable: results keep their order within a suite.
  const results = [...kept, ...fresh].sort((a, b) => rank(a) - rank(b));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ results }, null, 2)}\n`);
  return results;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function timeMs<T>(work: () => T): { ms: number; value: T } {
  const start = process.hrtime.bigint();
  const value = work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

export async function timeMsAsync<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** A small deterministic PRNG (mulberry32) so generated data is the same in every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function round(value: number): number {
  return Math.round(value * 100) / 100;
}
