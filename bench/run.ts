import { printTable, saveResults, type BenchResult } from './bench-kit';

/** `npm run bench [name…]`: runs the benchmarks (all, or those named) and saves bench/results.json. */
const browserBench = (name: string): string => `./browser/${name}`;

const suites: Record<string, () => Promise<{ run: () => Promise<BenchResult[]> }>> = {
  ingest: () => import('./library-ingest'),
  search: () => import('./library-search'),
  upload: () => import('./upload'),
  scheduler: () => import('./scheduler'),
  export: () => import('./export'),
  ask: () => import('./ask'),
  voice: () => import('./voice'),
  // Typed by bench/browser/tsconfig.json (it needs the DOM), so imported by a computed path.
  reader: () => import(browserBench('reader')) as Promise<{ run: () => Promise<BenchResult[]> }>,
  catalog: () => import(browserBench('catalog')) as Promise<{ run: () => Promise<BenchResult[]> }>,
};

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in suites));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${Object.keys(suites).join(', ')}`);
  process.exit(2);
}
const results: BenchResult[] = [];
for (const name of chosen.length > 0 ? chosen : Object.keys(suites)) {
  console.log(`bench: ${name}…`);
  const suite = await suites[name]!();
  results.push(...(await suite.run()));
}
printTable(results);
saveResults(results);
