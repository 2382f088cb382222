import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judge, readResults, type Measurement, type RunInfo } from './bench-kit';
import { gitChangedSince } from './bench-freshness';
import {
  checkedHead,
  docPath,
  formatNumber,
  renderReport,
  reportEnd,
  reportStart,
  rewriteReport,
} from './bench-report';

const run: RunInfo = {
  commit: '0123456789abcdef0123456789abcdef01234567',
  dirty: true,
  date: '2026-11-20T10:00:00.000Z',
  machine: { cpus: 2, cpuModel: 'Test CPU', memoryGiB: 8, node: 'v20.0.0', platform: 'linux x64' },
};

const search: Measurement = {
  name: 'search: p95 query time',
  statistic: 'p95',
  unit: 'ms',
  ours: 25.26,
  baseline: 26.41,
  baselineLabel: 'bare FTS5 | MATCH, p95',
  targets: [
    { of: 'ours', statistic: 'p95', comparison: '<', threshold: 30, unit: 'ms' },
    { of: 'ratio', comparison: '<=', threshold: 1.3 },
  ],
  notes: { p50: 0.6356, order: 'alternating' },
};
const batch: Measurement = {
  name: 'export: mean time per transcript',
  statistic: 'mean',
  unit: 'ms',
  ours: 14.6,
  baseline: 3.2,
  baselineLabel: 'JSON files, mean',
  targets: [],
};

describe('the results section of docs/benchmarks.md', () => {
  it('renders one row per result with its figure, run baseline, ratio, target, verdict and run', () => {
    const report = renderReport([judge(search, 'search', run), judge(batch, 'export', run)]);
    const lines = report.split('\n');
    expect(lines[0]).toBe('<!-- prettier-ignore-start -->');
    expect(lines.at(-1)).toBe('<!-- prettier-ignore-end -->');
    const row = (name: string): string[] =>
      lines
        .find((line) => line.startsWith(`| ${name}`))!
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim());
    expect(row('search')).toEqual([
      'search: p95 query time',
      '25.3 ms',
      '26.4 ms: bare FTS5 \\| MATCH, p95',
      '0.96x',
      'p95 < 30 ms; ratio ≤ 1.3',
      'yes',
      '0123456 (dirty), 2026-11-20',
    ]);
    expect(row('export')).toEqual([
      'export: mean time per transcript',
      '14.6 ms',
      '3.20 ms: JSON files, mean',
      '4.56x',
      'reported only',
      '—',
      '0123456 (dirty), 2026-11-20',
    ]);
    expect(report).toContain('Machine: 2 CPUs (Test CPU), 8 GiB, Node v20.0.0, linux x64.');
    expect(report).toContain(
      '- **search: p95 query time**: p95 < 30 ms: 25.3 (met); ratio ≤ 1.3: 0.96 (met); p50 0.64; order alternating.',
    );
  });

  it('says NO for a missed target and numbers the machines when there are several', () => {
    const other: RunInfo = { ...run, machine: { ...run.machine, cpus: 8 } };
    const report = renderReport([
      judge({ ...search, ours: 40 }, 'search', run),
      judge(batch, 'export', other),
    ]);
    expect(report).toMatch(/\| NO +\| 0123456 \(dirty\), 2026-11-20, machine 1 \|/);
    expect(report).toContain('p95 < 30 ms: 40 (missed)');
    expect(report).toContain('Machine 2: 8 CPUs (Test CPU)');
  });

  it('rewrites only what lies between the markers', () => {
    const doc = `# Benchmarks\n\nIntro.\n\n${reportStart}\nstale table\n${reportEnd}\n\n## After\n`;
    const rewritten = rewriteReport(doc, [judge(search, 'search', run)]);
    expect(
      rewritten.startsWith(`# Benchmarks\n\nIntro.\n\n${reportStart}\n<!-- prettier-ignore-start -->`),
    ).toBe(true);
    expect(rewritten.endsWith(`<!-- prettier-ignore-end -->\n${reportEnd}\n\n## After\n`)).toBe(true);
    expect(rewritten).not.toContain('stale table');
    expect(rewriteReport(rewritten, [judge(search, 'search', run)])).toBe(rewritten);
    expect(() => rewriteReport('# Benchmarks\n', [])).toThrow(/lost its markers/);
  });

  it('formats figures to about three significant digits', () => {
    expect([1234.5, 133.5, 25.26, 4.8, 0.1897, 0, 20, null].map(formatNumber)).toEqual([
      '1,235',
      '134',
      '25.3',
      '4.80',
      '0.19',
      '0',
      '20',
      'not measured',
    ]);
  });

  it('is, in the committed doc, exactly what the committed results make, checked against the commit it names', () => {
    const doc = readFileSync(docPath, 'utf8');
    const head = checkedHead(doc);
    expect(head, 'the doc names the commit its freshness was checked against').toBeDefined();
    expect(doc).toBe(
      rewriteReport(doc, readResults(), { head: head!, changedSince: gitChangedSince(head!) }),
    );
  });

  it('adds a fresh column: a figure is stale on a dirty tree, after a change to its files, or from an unknown commit', () => {
    const clean = { ...run, dirty: false };
    const changed: Record<string, string[] | null> = {
      [clean.commit]: [
        'src/main/core/library/transcript-search.ts',
        'bench/library-search.ts',
        'bench/fixtures.ts',
      ],
    };
    const asked: string[][] = [];
    const report = renderReport(
      [
        judge(search, 'search', clean),
        judge(batch, 'export', { ...clean, commit: 'f'.repeat(40) }),
        judge(batch, 'export', run),
      ],
      {
        head: 'a'.repeat(40),
        changedSince: (commit, paths) => {
          asked.push([...paths]);
          return commit in changed ? changed[commit]! : commit === 'f'.repeat(40) ? [] : null;
        },
      },
    );
    expect(report).toMatch(
      /\| stale: 3 files changed since \(src\/main\/core\/library\/transcript-search\.ts, bench\/library-search\.ts, …\) +\|/,
    );
    expect(report).toMatch(/\| fresh +\|/);
    expect(report).toMatch(/\| stale: measured on a dirty tree +\|/);
    expect(report).toContain(`and ${'a'.repeat(40)}, when this section was written`);
    // Each suite is checked against its own files and the kit's.
    expect(asked[0]).toEqual(
      expect.arrayContaining(['src/main/core/library', 'bench/library-search.ts', 'bench/bench-kit.ts']),
    );
    expect(asked[1]).toContain('src/main/core/export');
    expect(asked[1]).not.toContain('bench/library-search.ts');
  });
});
