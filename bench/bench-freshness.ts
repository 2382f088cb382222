import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BenchResult } from './bench-kit';

/**
 * Whether a figure in bench/results.json still describes the code: each suite names the files
 * whose code it measures, and a figure is stale once any of them changed after the commit it was
 * measured at (or when it was measured on a dirty tree, whose code no commit holds).
 */

const benchKit = ['bench/bench-kit.ts', 'bench/fixtures.ts'];
const library = ['src/main/core/library', 'src/main/core/data', 'src/shared/library.ts'];
const renderer = ['src/renderer/src', 'src/shared', 'src/web-host', 'bench/browser'];

/** The code each suite measures, as git pathspecs from the repository's root. */
export const suiteCovers: Record<string, readonly string[]> = {
  ingest: [...library, 'bench/library-ingest.ts'],
  search: [...library, 'bench/library-search.ts'],
  'search-archive': [...library, 'bench/library-search.ts', 'bench/search-archive.ts'],
  open: [...library, 'bench/library-open.ts'],
  upload: ['src/main/core/http', 'src/main/core/transcription', 'bench/upload.ts', 'bench/upload-child.ts'],
  scheduler: ['src/main/core/scheduler', 'src/main/core/transcription', 'bench/scheduler.ts'],
  export: ['src/main/core/export', ...library, 'bench/export.ts'],
  ask: [
    'src/main/core/ask',
    'src/main/core/gateway',
    'bench/ask.ts',
    'bench/sse-stream.ts',
    'bench/emulator-process.ts',
  ],
  sse: [
    'src/main/core/gateway/sse-parser.ts',
    'bench/sse.ts',
    'bench/sse-stream.ts',
    'bench/hand-written-sse-parser.ts',
  ],
  voice: ['src/main/core/voice', 'bench/voice.ts'],
  reader: [...renderer],
  catalog: [...renderer, 'src/main/core/catalog'],
  corrections: [...renderer, ...library, 'bench/corrections.ts', 'bench/correction-fixtures.ts'],
  quotes: [...renderer, ...library, 'bench/quotes.ts'],
  'story-export': ['src/main/core/export', ...library, 'bench/story-export.ts'],
  recording: ['src/main/core/recording', 'src/main/audio/native-audio.ts', 'bench/recording.ts'],
  collaboration: [
    'src/main/core/collaboration',
    'src/main/core/newsroom',
    'src/main/ipc/story-review-handlers.ts',
    'src/main/ipc/newsroom-glossary-handlers.ts',
    'src/main/compose.ts',
    ...library,
    'scripts/newsroom/local-postgres.ts',
    'bench/collaboration.ts',
  ],
  newsroom: [
    'src/main/core/newsroom',
    'src/main/core/publishing',
    ...library,
    'scripts/newsroom/local-postgres.ts',
    'bench/newsroom.ts',
  ],
};

/** The files under `paths` that differ between `commit` and the commit checked against; null when git does not know the commit. */
export type ChangedSince = (commit: string, paths: readonly string[]) => string[] | null;

/** "fresh", or why the figure no longer describes the code. */
export function freshness(result: BenchResult, changedSince: ChangedSince): string {
  if (result.run.dirty) return 'stale: measured on a dirty tree';
  const covers = suiteCovers[result.suite];
  if (!covers) return 'unknown: the suite names no files';
  const changed = changedSince(result.run.commit, [...covers, ...benchKit]);
  if (changed === null) return 'stale: its commit is not in this history';
  if (changed.length === 0) return 'fresh';
  const shown = changed.slice(0, 2).join(', ');
  return `stale: ${changed.length} file${changed.length === 1 ? '' : 's'} changed since (${shown}${changed.length > 2 ? ', …' : ''})`;
}

/** `ChangedSince` by asking git in `repository`, against commit `head`. */
export function gitChangedSince(head: string, repository = join(import.meta.dirname, '..')): ChangedSince {
  const known = new Map<string, boolean>();
  return (commit, paths) => {
    if (!known.has(commit)) {
      try {
        execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: repository, stdio: 'ignore' });
        known.set(commit, true);
      } catch {
        known.set(commit, false);
      }
    }
    if (!known.get(commit)) return null;
    const output = execFileSync('git', ['diff', '--name-only', commit, head, '--', ...paths], {
      cwd: repository,
      encoding: 'utf8',
    });
    return output.split('\n').filter(Boolean);
  };
}
