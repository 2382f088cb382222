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
 * table was read, over 40,000 sentences of two desks where the planner would choose the index for a rare word.
 */
const server = useNewsroomServer();

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  // City (ana) and Politics (dev) take turns, a day apart, as desks share a newsroom's days.
  const desks = [
    { user: 'ana', desk: 'City' },
    { user: 'dev', desk: 'Politics' },
  ];
  const connections = desks.map(({ user }) => connectionAs(server(), user));
  try {
    for (let transcript = 0; transcript < 20; transcript++) {
      const { desk } = desks[transcript % 2]!;
      await new NewsroomArchive(connections[transcript % 2]!).apply({
        kind: 'publish',
        publication: samplePublication(`interview-${transcript}`, 1, {
          desk,
          recordedAt: Date.UTC(2025, 0, 1 + transcript),
          sentences: sampleSentences(2000, `the harbour master said in interview ${transcript}`),
        }),
      });
    }
  } finally {
    for (const connection of connections) await connection.close();
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

/** How many times each of these indexes of the sentences was read so far. */
async function indexReads(names: readonly string[]): Promise<Record<string, number>> {
  const found = await server().pool.query<{ name: string; reads: string }>(
    'SELECT indexrelname AS name, idx_scan AS reads FROM pg_stat_user_indexes WHERE indexrelname = ANY ($1)',
    [names],
  );
  return Object.fromEntries(found.rows.map((row) => [row.name, Number(row.reads)]));
}

describe("a desk-filtered search walks the desk's own index (migration 006)", () => {
  const dateIndexes = ['published_sentences_by_desk', 'published_sentences_by_recorded_at'];

  /** Which date index a City search for "the" walked, as ben, on a connection of its own. */
  async function indexWalked(): Promise<string[]> {
    const before = await indexReads(dateIndexes);
    const connection = connectionAs(server(), 'ben');
    try {
      const page = await searchNewsroom(connection, { text: 'the ', desk: 'City', limit: 20 });
      expect(page.hits.every((hit) => hit.desk === 'City')).toBe(true);
      expect(page.totalCapped).toBe(true);
    } finally {
      await connection.close();
    }
    for (let tries = 0; tries < 100; tries++) {
      const after = await indexReads(dateIndexes);
      const walked = dateIndexes.filter((name) => (after[name] ?? 0) > (before[name] ?? 0));
      if (walked.length > 0) return walked;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('PostgreSQL never counted a read of either date index.');
  }

  it("with migration 006, the desk's (desk, recorded_at) index; planned at the default cost, the all-desks one", async () => {
    expect(await indexWalked()).toEqual(['published_sentences_by_desk']);
    const signature =
      'verbatim.visible_matches(tsquery, text, name, timestamptz, timestamptz, text, text, integer)';
    await server().pool.query(`ALTER FUNCTION ${signature} RESET random_page_cost`);
    try {
      expect(await indexWalked()).toEqual(['published_sentences_by_recorded_at']);
    } finally {
      await server().pool.query(`ALTER FUNCTION ${signature} SET random_page_cost = 1.1`);
    }
  });
});
