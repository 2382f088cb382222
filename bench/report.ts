import { writeReport } from './bench-report';

/** `npm run bench:report`: rewrites the results section of docs/benchmarks.md from bench/results.json. */
writeReport();
console.log('docs/benchmarks.md: results section rewritten from bench/results.json');
