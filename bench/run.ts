import { judge, runInfo, saveResults, type BenchResult, type Measurement } from './bench-kit';
import { writeReport } from './bench-report';

/**
 * `npm run bench [name…]`: runs the benchmarks (all, or those named), judges each result
 * against its targets, saves bench/results.json and rewrites the results section of
 * docs/benchmarks.md. Exits with 1 when any target is missed.
 */
const browserBench = (name: string): string => `./browser/${name}`;
type Suite = { run: () => Promise<Measurement[]> };

const suites: Record<string, () => Promise<Suite>> = {
  ingest: () => import('./library-ingest'),
  search: () => import('./library-search'),
  open: () => import('./library-open'),
  upload: () => import('./upload'),
  scheduler: () => import('./scheduler'),
  export: () => import('./export'),
  ask: () => import('./ask'),
  sse: () => import('./sse'),
  voice: () => import('./voice'),
  // Typed by bench/browser/tsconfig.json (it needs the DOM), so imported by a computed path.
  reader: () => import(browserBench('reader')) as Promise<Suite>,
  catalog: () => import(browserBench('catalog')) as Promise<Suite>,
  // In main, then in Chromium (bench/browser/corrections-paint.ts, which it imports itself).
  corrections: () => import('./corrections'),
  // In main, then in Chromium once the Quotes view is there (bench/browser/quotes-paint.ts).
  quotes: () => import('./quotes'),
  'story-export': () => import('./story-export'),
  recording: () => import('./recording'),
};

/** Run only when named: they take many minutes. */
const namedOnly: Record<string, () => Promise<Suite>> = {
  // 10,000 hours of transcripts (6 million sentences): minutes to build.
  'search-archive': () => import('./search-archive'),
};
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
