import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readResults, resultsPath, type BenchResult, type RunInfo } from './bench-kit';
import { freshness, gitChangedSince, type ChangedSince } from './bench-freshness';

/**
 * The results section of docs/benchmarks.md, generated from bench/results.json so the doc
 * cannot say anything the run did not measure. Everything between the two markers is
 * rewritten; the prose around them is the doc's own.
 */
export const reportStart =
  '<!-- bench:results:start (generated from bench/results.json by `npm run bench:report`; do not edit) -->';
export const reportEnd = '<!-- bench:results:end -->';
export const docPath = join(import.meta.dirname, '..', 'docs', 'benchmarks.md');

/** Counts as they are; other figures to about three significant digits. */
export function formatNumber(value: number | null): string {
  if (value === null) return 'not measured';
  const magnitude = Math.abs(value);
  if (Number.isInteger(value) || magnitude >= 100) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return String(Number(value.toPrecision(2)));
}

function figureWithUnit(value: number | null, unit: string): string {
  return value === null ? 'not measured' : `${formatNumber(value)} ${unit}`;
}

function machineText(machine: RunInfo['machine']): string {
  return `${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}`;
}

function runText(run: RunInfo): string {
  return `${run.commit.slice(0, 7)}${run.dirty ? ' (dirty)' : ''}, ${run.date.slice(0, 10)}`;
}

function verdictText(result: BenchResult): string {
  if (result.met === null) return '—';
  return result.met ? 'yes' : 'NO';
}

/** A Markdown table with its columns padded, so the source reads as well as the page. */
function table(header: string[], rows: string[][]): string {
  const cells = [header, ...rows].map((row) => row.map((cell) => cell.replaceAll('|', '\\|')));
  const widths = header.map((_, column) => Math.max(3, ...cells.map((row) => row[column]!.length)));
  const line = (row: string[]): string =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    line(cells[0]!),
    `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`,
    ...cells.slice(1).map(line),
  ].join('\n');
}

/** Where the figures were checked against the code: the commit and what has changed since each was measured. */
export interface FreshnessCheck {
  head: string;
  changedSince: ChangedSince;
}

/**
 * The generated section: the table, the machines it ran on, and each result's notes; with a
 * freshness check, a column saying which figures the code has moved on from.
 */
export function renderReport(results: BenchResult[], check?: FreshnessCheck): string {
  const machines = [...new Set(results.map((result) => machineText(result.run.machine)))];
  const machineMark = (result: BenchResult): string =>
    machines.length > 1 ? `, machine ${machines.indexOf(machineText(result.run.machine)) + 1}` : '';
  const rows = results.map((result) => [
    result.name,
    figureWithUnit(result.ours, result.unit),
    `${figureWithUnit(result.baseline, result.unit)}: ${result.baselineLabel}`,
    result.ratio === null ? 'not measured' : `${formatNumber(result.ratio)}x`,
    result.targets.length === 0 ? 'reported only' : result.verdicts.map((v) => v.target).join('; '),
    verdictText(result),
    `${runText(result.run)}${machineMark(result)}`,
    ...(check ? [freshness(result, check.changedSince)] : []),
  ]);
  const machineLines =
    machines.length === 1
      ? [`Machine: ${machines[0]}.`]
      : machines.map((machine, index) => `Machine ${index + 1}: ${machine}.`);
  const details = results.map((result) => {
    const verdicts = result.verdicts.map(
      (v) =>
        `${v.target}: ${v.value === null ? 'not measured' : formatNumber(v.value)} (${v.met ? 'met' : 'missed'})`,
    );
    const notes = Object.entries(result.notes ?? {}).map(
      ([key, value]) => `${key} ${typeof value === 'number' ? formatNumber(value) : value}`,
    );
    return `- **${result.name}**: ${[...verdicts, ...notes].join('; ') || 'no notes'}.`;
  });
  return [
    // Prettier would realign the table; the generator owns this block, byte for byte.
    '<!-- prettier-ignore-start -->',
    table(
      [
        'benchmark',
        'Verbatim',
        'baseline, run in the same process',
        'ratio',
        'target',
        'met',
        'run',
        ...(check ? ['fresh'] : []),
      ],
      rows,
    ),
    '',
    ...machineLines,
    ...(check
      ? [
          '',
          `Fresh: whether the code each figure measures is unchanged between its run's commit and ${check.head}, when this section was written; a stale figure is re-measured with \`npm run bench -- <suite>\`.`,
        ]
      : []),
    '',
    ...details,
    '<!-- prettier-ignore-end -->',
  ].join('\n');
}

/** The commit the doc's freshness column was checked against, as the section names it. */
export function checkedHead(doc: string): string | undefined {
  return /and ([0-9a-f]{40}), when this section was written/.exec(doc)?.[1];
}

/** `doc` with the section between the markers replaced by the report of `results`. */
export function rewriteReport(doc: string, results: BenchResult[], check?: FreshnessCheck): string {
  const start = doc.indexOf(reportStart);
  const end = doc.indexOf(reportEnd);
  if (start < 0 || end < start) {
    throw new Error(`docs/benchmarks.md has lost its markers: ${reportStart} … ${reportEnd}`);
  }
  return `${doc.slice(0, start + reportStart.length)}\n${renderReport(results, check)}\n${doc.slice(end)}`;
}

/** Rewrites docs/benchmarks.md from bench/results.json. */
export function writeReport(results = readResults(resultsPath), path = docPath): void {
  const repository = join(import.meta.dirname, '..');
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repository, encoding: 'utf8' }).trim();
  const check = { head, changedSince: gitChangedSince(head, repository) };
  writeFileSync(path, rewriteReport(readFileSync(path, 'utf8'), results, check));
}
