import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from './database';
import { JobStore } from './job-store';
import type { Statement } from 'better-sqlite3';

let db: Db;
let jobs: JobStore;

beforeEach(() => {
  db = openDatabase(':memory:');
  let clock = 1_000;
  jobs = new JobStore(db, () => (clock += 1));
});
afterEach(() => {
  vi.restoreAllMocks();
  db.close();
});

/** `count` transcripts, each with its own tags (given out of order) and named speakers. */
function libraryOf(count: number): void {
  for (let i = 0; i < count; i++) {
    const id = `t${String(i).padStart(3, '0')}`;
    jobs.create({
      id,
      title: `Interview ${i}`,
      sourceKind: 'file',
      source: `/audio/${i}.wav`,
      audioPath: `/audio/${i}.wav`,
      region: 'us',
      options: { speakerLabels: i % 2 === 0 },
      status: 'completed',
    });
    if (i % 3 !== 0) jobs.setTags(id, [`zeta-${i}`, 'council', `alpha-${i}`]);
    if (i % 2 === 0) {
      jobs.renameSpeaker(id, 'B', `Guest ${i}`);
      jobs.renameSpeaker(id, 'A', 'Reporter');
    }
  }
}

/** How many statements run while `read` does, whichever method runs them. */
function statementsRunBy(read: () => unknown): number {
  const prototype = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, unknown>;
  const runs = (['all', 'get', 'run', 'iterate'] as const).map((method) =>
    vi.spyOn(prototype as Record<typeof method, () => unknown>, method),
  );
  read();
  const count = runs.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
  for (const spy of runs) spy.mockRestore();
  return count;
}

/** The table columns the statements run by `read` return, as "table.column". */
function columnsReadBy(read: () => unknown): Set<string> {
  const prototype = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, unknown>;
  const seen = new Set<string>();
  const runs = (['all', 'get', 'iterate'] as const).map((method) => {
    const original = prototype[method] as (...args: unknown[]) => unknown;
    return vi.spyOn(prototype as Record<typeof method, () => unknown>, method).mockImplementation(function (
      this: Statement,
      ...args: unknown[]
    ) {
      for (const column of this.columns()) seen.add(`${column.table}.${column.column}`);
      return original.apply(this, args);
    });
  });
  read();
  for (const spy of runs) spy.mockRestore();
  return seen;
}

describe('reading jobs', () => {
  it('never reads the service JSON or the full text kept beside a transcript (megabytes for a long one)', () => {
    libraryOf(3);
    db.prepare(
      "UPDATE transcripts SET transcript_json = ?, text = ?, status = 'processing' WHERE id = 't001'",
    ).run(
      JSON.stringify({ words: Array.from({ length: 1000 }, (_, i) => ({ text: `word${i}` })) }),
      'word '.repeat(1000),
    );
    const read = columnsReadBy(() => {
      jobs.get('t001');
      jobs.require('t001');
      jobs.list();
      jobs.unfinished();
    });
    expect(read.has('transcripts.id')).toBe(true);
    expect(read.has('transcripts.transcript_json')).toBe(false);
    expect(read.has('transcripts.text')).toBe(false);
  });
});

describe('JobStore.list', () => {
  it('reads a page of any length in the same few statements, not a few per transcript', () => {
    libraryOf(40);
    const forTwo = statementsRunBy(() => jobs.list({ limit: 2 }));
    const forForty = statementsRunBy(() => jobs.list({ limit: 40 }));
    expect(forForty).toBe(forTwo);
    expect(forForty).toBeLessThanOrEqual(4);
  });

  it('lists each transcript with its own tags, speakers and review, in the fields the JSON has always had', () => {
    libraryOf(7);
    const listed = jobs.list();
    expect(listed.map((job) => job.id)).toEqual(['t006', 't005', 't004', 't003', 't002', 't001', 't000']);
    for (const job of listed) {
      const i = Number(job.id.slice(1));
      expect(job.tags).toEqual(i % 3 !== 0 ? [`alpha-${i}`, 'council', `zeta-${i}`] : []);
      expect(job.speakers).toEqual(
        i % 2 === 0
          ? [
              { label: 'A', name: 'Reporter' },
              { label: 'B', name: `Guest ${i}` },
            ]
          : [],
      );
      expect(job.review).toEqual({ checked: 0, paragraphs: 0 });
      expect(job.corrections).toBe(0);
      expect(job.options).toEqual({ speakerLabels: i % 2 === 0 });
      expect(jobs.get(job.id)).toEqual(job);
    }
    expect(Object.keys(listed[0]!)).toEqual([
      'id',
      'remoteId',
      'region',
      'title',
      'sourceKind',
      'source',
      'audioPath',
      'status',
      'error',
      'languageCode',
      'audioDurationMs',
      'createdAt',
      'updatedAt',
      'completedAt',
      'tags',
      'speakers',
      'bytesTotal',
      'bytesSent',
      'corrections',
      'review',
      'uploadUrl',
      'nextCheckAt',
      'checks',
      'options',
    ]);
  });
});
