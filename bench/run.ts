import { judge, runInfo, saveResults, type BenchResult } from './bench-kit';
import { writeReport } from './bench-report';
import { namedOnly, suites } from './run-suites';

/**
 * `npm run bench [name…]`: runs the benchmarks (all, or those named), judges each result
 * against its targets, saves bench/results.json and rewrites the results section of
 * docs/benchmarks.md. Exits with 1 when any target is missed.
 */
const known = { ...suites, ...namedOnly };

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in known));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${Object.keys(known).join(', ')}`);
  process.exit(2);
}
const results: BenchResult[] = [];
for (const name of chosen.length > 0 ? chosen : Object.keys(suites)) {
  console.log(`bench: ${name}…`);
  const suite = await known[name]!();
  const measurements = await suite.run();
  // Recorded when the suite ends: the commit, the date and the machine that made its figures.
  const run = runInfo();
  results.push(...measurements.map((measurement) => judge(measurement, name, run)));
}
console.table(
  results.map((r) => ({
    benchmark: r.name,
    ours: `${r.ours} ${r.unit}`,
    baseline: `${r.baseline} ${r.unit}`,
    ratio: r.ratio,
    met: r.met === null ? '' : r.met ? 'yes' : 'NO',
  })),
);
writeReport(saveResults(results, Object.keys(known)));
const missed = results.filter((result) => result.met === false);
for (const result of missed) {
  const failed = result.verdicts.filter((verdict) => !verdict.met).map((verdict) => verdict.target);
  console.error(`MISSED: ${result.name}: ${failed.join('; ')}`);
}
if (missed.length > 0) process.exitCode = 1;
