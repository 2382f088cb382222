import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { judge, runInfo, saveResults, type Measurement, type RunInfo } from './bench-kit';

const run: RunInfo = {
  commit: 'a'.repeat(40),
  dirty: false,
  date: '2026-11-20T10:00:00.000Z',
  machine: { cpus: 2, cpuModel: 'Test CPU', memoryGiB: 8, node: 'v20.0.0', platform: 'linux x64' },
};

function measurement(overrides: Partial<Measurement> = {}): Measurement {
  return {
    name: 'search: p95 query time',
    statistic: 'p95',
    unit: 'ms',
    ours: 20,
    baseline: 18,
    baselineLabel: 'bare FTS5, p95',
    targets: [
      { of: 'ours', statistic: 'p95', comparison: '<', threshold: 30, unit: 'ms' },
      { of: 'ratio', comparison: '<=', threshold: 1.3 },
    ],
    ...overrides,
  };
}

describe('judge: the verdict comes from the targets, never from the benchmark', () => {
  it('meets a result whose every target holds, and records each verdict', () => {
    const result = judge(measurement(), 'search', run);
    expect(result.met).toBe(true);
    expect(result.ratio).toBeCloseTo(20 / 18);
    expect(result.verdicts).toEqual([
      { target: 'p95 < 30 ms', value: 20, met: true },
      { target: 'ratio ≤ 1.3', value: 20 / 18, met: true },
    ]);
    expect(result.suite).toBe('search');
    expect(result.run).toEqual(run);
  });

  it('fails when one target is missed, even if the others hold', () => {
    const result = judge(measurement({ ours: 25, baseline: 10 }), 'search', run);
    expect(result.verdicts.map((v) => v.met)).toEqual([true, false]);
    expect(result.met).toBe(false);
  });

  it('reads each comparison strictly as written', () => {
    const at = (comparison: '<' | '<=' | '>=' | '>', ours: number): boolean | null =>
      judge(
        measurement({
          ours,
          targets: [{ of: 'ours', statistic: 'p95', comparison, threshold: 30, unit: 'ms' }],
        }),
        's',
        run,
      ).met;
    expect([at('<', 30), at('<=', 30), at('>=', 30), at('>', 30)]).toEqual([false, true, true, false]);
    expect([at('<', 29.9), at('>', 30.1)]).toEqual([true, true]);
  });

  it('holds a difference target to ours minus the baseline', () => {
    const scrolling = (ours: number): boolean | null =>
      judge(
        measurement({
          ours,
          baseline: 16.7,
          targets: [{ of: 'difference', comparison: '<=', threshold: 0.5, unit: 'ms' }],
        }),
        'reader',
        run,
      ).met;
    expect(scrolling(17.1)).toBe(true);
    expect(scrolling(17.3)).toBe(false);
  });

  it('holds a note target to the figure the benchmark recorded', () => {
    const lost = (count: number): boolean | null =>
      judge(
        measurement({
          notes: { lost: count },
          targets: [{ of: 'note', note: 'lost', comparison: '<=', threshold: 0 }],
        }),
        'scheduler',
        run,
      ).met;
    expect(lost(0)).toBe(true);
    expect(lost(1)).toBe(false);
  });

  it('fails a figure that could not be measured and stores it as null', () => {
    const result = judge(measurement({ ours: Number.POSITIVE_INFINITY }), 'voice', run);
    expect(result.met).toBe(false);
    expect(result.ours).toBeNull();
    expect(result.ratio).toBeNull();
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    expect(judge(measurement({ ours: Number.NaN }), 'voice', run).met).toBe(false);
  });

  it('has no verdict for a figure reported without a target', () => {
    expect(judge(measurement({ targets: [] }), 'export', run).met).toBeNull();
  });

  it('refuses a target on another statistic than the one measured', () => {
    expect(() =>
      judge(
        measurement({
          name: 'catalog: median time to open',
          statistic: 'median',
          targets: [{ of: 'ours', statistic: 'p95', comparison: '<', threshold: 150, unit: 'ms' }],
        }),
        'catalog',
        run,
      ),
    ).toThrow(/measures the median but its target is on the p95/);
  });

  it('refuses a label that does not name the statistic measured', () => {
    expect(() =>
      judge(measurement({ name: 'catalog: time to open', statistic: 'median', targets: [] }), 'c', run),
    ).toThrow(/its label does not say so/);
  });

  it('refuses a target on a figure the benchmark did not record', () => {
    expect(() =>
      judge(
        measurement({ targets: [{ of: 'note', note: 'lost', comparison: '<=', threshold: 0 }] }),
        's',
        run,
      ),
    ).toThrow(/no such figure/);
  });
});

describe('runInfo: every result is traceable to a commit and a machine', () => {
  it('records the checkout commit, whether it is dirty, the date and the machine', () => {
    const info = runInfo(new Date('2026-11-20T10:00:00Z'));
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }) !== '';
    expect(info.commit).toBe(head);
    expect(info.dirty).toBe(dirty);
    expect(info.date).toBe('2026-11-20T10:00:00.000Z');
    expect(info.machine.cpus).toBe(availableParallelism());
    expect(info.machine.cpuModel.length).toBeGreaterThan(0);
    expect(info.machine.memoryGiB).toBeCloseTo(totalmem() / 1024 ** 3, 0);
    expect(info.machine.node).toBe(process.version);
  });
});

describe('saveResults', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('replaces every earlier result of a suite that ran, keeps the others, and orders by suite', () => {
    dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-kit-'));
    const path = join(dir, 'results.json');
    const old = judge(measurement({ name: 'search: p95 old name' }), 'search', run);
    const kept = judge(measurement({ name: 'ingest: p95 of something' }), 'ingest', run);
    // An entry in the shape from before results recorded their run: not evidence, dropped.
    writeFileSync(path, JSON.stringify({ results: [old, { name: 'library search p95', ours: 1 }, kept] }));
    const fresh = judge(measurement({ name: 'search: p95 new name' }), 'search', run);
    const saved = saveResults([fresh], ['ingest', 'search'], path);
    expect(saved.map((r) => r.name)).toEqual(['ingest: p95 of something', 'search: p95 new name']);
    expect((JSON.parse(readFileSync(path, 'utf8')) as { results: unknown[] }).results).toEqual(saved);
  });
});
