import type { Measurement } from './bench-kit';
import { runSearchBench } from './library-search';

/**
 * `npm run bench -- search-archive`: library search over 10,000 hours (6 million sentences), the
 * archive of a newsroom, with the same query classes and filters as the 1,000-hour `search`
 * bench; target p95 under 100 ms. Not in the default run: building the library takes minutes.
 */
export function run(): Promise<Measurement[]> {
  return runSearchBench(10_000, 100);
}
