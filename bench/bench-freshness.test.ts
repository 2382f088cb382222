import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshness, gitChangedSince, suiteCovers } from './bench-freshness';
import { judge, type Measurement, type RunInfo } from './bench-kit';
import { suiteNames } from './run-suites';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A repository with one commit, then a second that changes `changed`. */
function repositoryWithTwoCommits(changed: string): { path: string; first: string; second: string } {
  const path = mkdtempSync(join(tmpdir(), 'verbatim-bench-freshness-'));
  folders.push(path);
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.org', ...args], {
      cwd: path,
      encoding: 'utf8',
    }).trim();
  git('init', '-q');
  for (const file of [
    'src/main/core/export/docx.ts',
    'src/main/core/voice/session.ts',
    'bench/bench-kit.ts',
  ]) {
    mkdirSync(join(path, file, '..'), { recursive: true });
    writeFileSync(join(path, file), 'one\n');
  }
  git('add', '-A');
  git('commit', '-qm', 'first');
  const first = git('rev-parse', 'HEAD');
  writeFileSync(join(path, changed), 'two\n');
  git('commit', '-qam', 'second');
  return { path, first, second: git('rev-parse', 'HEAD') };
}

const measurement: Measurement = {
  name: 'export: mean time per transcript',
  statistic: 'mean',
  unit: 'ms',
  ours: 10,
  baseline: 5,
  baselineLabel: 'JSON',
  targets: [],
};
const runAt = (commit: string): RunInfo => ({
  commit,
  dirty: false,
  date: '2026-11-26T10:00:00.000Z',
  machine: { cpus: 2, cpuModel: 'Test', memoryGiB: 8, node: 'v20', platform: 'linux x64' },
});

describe('a figure is stale once the code it measures changed after its run', () => {
  it('asks git: a change to the suite’s files makes its figure stale, a change elsewhere does not', () => {
    const repository = repositoryWithTwoCommits('src/main/core/voice/session.ts');
    const changedSince = gitChangedSince(repository.second, repository.path);
    expect(freshness(judge(measurement, 'export', runAt(repository.first)), changedSince)).toBe('fresh');
    expect(freshness(judge(measurement, 'voice', runAt(repository.first)), changedSince)).toBe(
      'stale: 1 file changed since (src/main/core/voice/session.ts)',
    );
    expect(freshness(judge(measurement, 'voice', runAt(repository.second)), changedSince)).toBe('fresh');
    expect(freshness(judge(measurement, 'voice', runAt('0'.repeat(40))), changedSince)).toBe(
      'stale: its commit is not in this history',
    );
  });

  it('counts a change to the benchmark kit against every suite', () => {
    const repository = repositoryWithTwoCommits('bench/bench-kit.ts');
    const changedSince = gitChangedSince(repository.second, repository.path);
    expect(freshness(judge(measurement, 'export', runAt(repository.first)), changedSince)).toMatch(
      /^stale: 1 file/,
    );
  });

  it('names the files of every suite `npm run bench` knows', () => {
    expect(Object.keys(suiteCovers).sort()).toEqual([...suiteNames].sort());
  });
});
