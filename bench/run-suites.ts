import type { Measurement } from './bench-kit';

/** Every benchmark `npm run bench` knows, by the name it is run with. */
const browserBench = (name: string): string => `./browser/${name}`;
export type Suite = { run: () => Promise<Measurement[]> };

export const suites: Record<string, () => Promise<Suite>> = {
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
  // Two and three apps as different users on a real PostgreSQL: a comment's and a glossary entry's live path.
  collaboration: () => import('./collaboration'),
};

/** Run only when named: they take many minutes. */
export const namedOnly: Record<string, () => Promise<Suite>> = {
  // 10,000 hours of transcripts (6 million sentences): minutes to build.
  'search-archive': () => import('./search-archive'),
  // A real PostgreSQL filled with 10,000 hours through the archive's publish path: many minutes.
  newsroom: () => import('./newsroom'),
};

/** The names `npm run bench -- <name>` takes. */
export const suiteNames = [...Object.keys(suites), ...Object.keys(namedOnly)];
