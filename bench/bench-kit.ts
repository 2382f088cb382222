import { writeFileSync, readFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Every benchmark measures Verbatim against a baseline in the same run, on the same machine,
 * and reports the ratio: absolute times on a 2-core CI box mean little, ratios travel.
 */
export interface BenchResult {
  name: string;
  unit: string;
  ours: number;
  baseline: number;
  /** ours / baseline (lower is better for times). */
  ratio: number;
  target?: string;
  met?: boolean;
  notes?: Record<string, number | string>;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
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

export const resultsPath = join(import.meta.dirname, 'results.json');

/** Merges results by name into bench/results.json, keeping the other benchmarks' entries. */
export function saveResults(results: BenchResult[]): void {
  mkdirSync(dirname(resultsPath), { recursive: true });
  const existing: BenchResult[] = existsSync(resultsPath)
    ? ((JSON.parse(readFileSync(resultsPath, 'utf8')) as { results?: BenchResult[] }).results ?? [])
    : [];
  const byName = new Map(existing.map((result) => [result.name, result]));
  for (const result of results) byName.set(result.name, result);
  writeFileSync(
    resultsPath,
    `${JSON.stringify({ machine: { cpus: (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? null, node: process.version }, results: [...byName.values()] }, null, 2)}\n`,
  );
}

export function printTable(results: BenchResult[]): void {
  const rows = results.map((r) => ({
    benchmark: r.name,
    ours: `${round(r.ours)} ${r.unit}`,
    baseline: `${round(r.baseline)} ${r.unit}`,
    ratio: `${round(r.ratio)}x`,
    target: r.target ?? '',
    met: r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  }));
  console.table(rows);
}

export function round(value: number): number {
  return Math.round(value * 100) / 100;
}
