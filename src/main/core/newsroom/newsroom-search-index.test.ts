import { beforeAll, describe, expect, it } from 'vitest';
import { NewsroomArchive } from './newsroom-archive';
import {
  connectionAs,
  sampleSentences,
  samplePublication,
  setUpSampleNewsroom,
  sqlAs,
} from './newsroom-archive.test-kit';
import { searchNewsroom } from './newsroom-search';
import { useNewsroomServer } from './newsroom-server.test-kit';

/**
 * Newsroom search finds sentences with the full-text index, as a reporter under row-level
 * security (migration 005): watched through PostgreSQL's own counters of how the sentences
 * table was read, over 20,000 sentences where the planner would choose the index for a rare word.
 */
const server = useNewsroomServer();

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  const connection = connectionAs(server(), 'ana');
  try {
    const archive = new NewsroomArchive(connection);
    for (let transcript = 0; transcript < 10; transcript++)
      await archive.apply({
        kind: 'publish',
        publication: samplePublication(`interview-${transcript}`, 1, {
          sentences: sampleSentences(2000, `the harbour master said in interview ${transcript}`),
        }),
      });
  } finally {
    await connection.close();
  }
  await server().pool.query('ANALYZE verbatim.published_sentences');
}, 120_000);

interface Reads {
  sequential: number;
  indexed: number;
}

async function sentenceReads(): Promise<Reads> {
  const found = await server().pool.query<{ seq_scan: string; idx_scan: string }>(
    "SELECT seq_scan, idx_scan FROM pg_stat_user_tables WHERE relid = 'verbatim.published_sentences'::regclass",
  );
  const row = found.rows[0];
  return { sequential: Number(row?.seq_scan ?? 0), indexed: Number(row?.idx_scan ?? 0) };
}

/**
 * How the sentences were read while `work` ran as a reporter on its own connection: a backend
 * hands its counters to the statistics when it ends, so the connection is closed and the
 * counters awaited.
 */
async function readsDuring(
  work: (run: (sql: string, values?: unknown[]) => Promise<unknown>) => Promise<void>,
): Promise<Reads> {
  const before = await sentenceReads();
  const client = await sqlAs(server(), 'ben');
  try {
    await work((sql, values) => client.query(sql, values));
  } finally {
    await client.end();
  }
  for (let tries = 0; tries < 100; tries++) {
    const after = await sentenceReads();
    if (after.sequential !== before.sequential || after.indexed !== before.indexed)
      return { sequential: after.sequential - before.sequential, indexed: after.indexed - before.indexed };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('PostgreSQL never counted the reads of the sentences table.');
}

describe('newsroom search at scale reads the full-text index, not every sentence', () => {
  it('the plain query under row-level security reads every sentence (why search has its function)', async () => {
    const reads = await readsDuring(async (run) => {
      await run(
        "SELECT position FROM verbatim.published_sentences WHERE search @@ to_tsquery('simple', '1234')",
      );
    });
    expect(reads.sequential).toBeGreaterThan(0);
  });

  it("a reporter's search for a rare word uses the index and reads no sentence sequentially", async () => {
    const connection = connectionAs(server(), 'ben');
    let hits = 0;
    const before = await sentenceReads();
    try {
      const page = await searchNewsroom(connection, { text: '1234', limit: 50 });
      hits = page.total;
    } finally {
      await connection.close();
    }
    expect(hits).toBe(10);
    let after = await sentenceReads();
    for (let tries = 0; tries < 100 && after.indexed === before.indexed; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await sentenceReads();
    }
    expect({
      sequential: after.sequential - before.sequential,
      indexed: after.indexed > before.indexed,
    }).toEqual({
      sequential: 0,
      indexed: true,
    });
  });
});
