import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCliProcess } from '../cli-process.test-kit';

/**
 * `jobs` over a library of thousands of transcripts lists every one, as lines or as one JSON
 * array, through a pipe: it stopped at the first 1,000 without a word.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-jobs-'));
const env = { VERBATIM_DATA_DIR: dataDir };
const count = 2_345;
/** Several jobs per moment, as an import of many files makes: the pages must neither skip nor repeat one. */
const sameMoment = 7;

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  let tick = 0;
  const library = new Library(db, () => 1_700_000_000_000 + Math.floor(tick++ / sameMoment) * 1000);
  for (let index = 0; index < count; index++)
    await library.createJob({
      id: `job-${String(index).padStart(5, '0')}`,
      title: `Council meeting ${index}`,
      sourceKind: 'file',
      source: `/recordings/council-${index}.wav`,
      audioPath: `/recordings/council-${index}.wav`,
      region: 'us',
      options: {},
      status: 'cancelled',
    });
  db.close();
}, 120_000);

describe('verbatim jobs over a large library', () => {
  it('--json prints every transcript once, as one JSON array, newest first', async () => {
    const run = await runCliProcess(['jobs', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const jobs = JSON.parse(run.stdout) as { id: string; createdAt: number }[];
    expect(jobs).toHaveLength(count);
    expect(new Set(jobs.map((job) => job.id)).size).toBe(count);
    // The same text JSON.stringify gives the whole list at once.
    expect(run.stdout).toBe(`${JSON.stringify(jobs, null, 2)}\n`);
    const createdAt = jobs.map((job) => job.createdAt);
    expect(createdAt).toEqual([...createdAt].sort((a, b) => b - a));
  }, 60_000);

  it('prints a line for every transcript', async () => {
    const run = await runCliProcess(['jobs'], env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(count);
    expect(new Set(lines).size).toBe(count);
    expect(lines).toContain('job-00000  Council meeting 0  cancelled');
  }, 60_000);
});
