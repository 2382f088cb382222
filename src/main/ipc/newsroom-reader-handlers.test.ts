import { beforeAll, describe, expect, it } from 'vitest';
import {
  connectionAs,
  passwordOf,
  samplePublication,
  setUpSampleNewsroom,
} from '../core/newsroom/newsroom-archive.test-kit';
import { NewsroomArchive } from '../core/newsroom/newsroom-archive';
import { useNewsroomServer } from '../core/newsroom/newsroom-server.test-kit';
import { useAppTestbeds } from './ipc-testbed.test-kit';
import type { NewsroomSearchPage } from '../../shared/newsroom-search';

const server = useNewsroomServer();
beforeAll(() => setUpSampleNewsroom(server()));

const app = useAppTestbeds();

/**
 * The app's connections to the test server as `user`, seen by the server itself: the kept pool
 * and a search's LISTEN, not working together's own LISTEN (issue #36, counted apart by
 * `collaborationListensOf`), which the app holds whenever a newsroom is set.
 */
async function backendsOf(user: string): Promise<number> {
  const { rows } = await server().pool.query<{ count: string }>(
    `SELECT count(*) AS count FROM pg_stat_activity WHERE usename = $1 AND application_name = 'Verbatim'
       AND query IS DISTINCT FROM 'LISTEN verbatim_collaboration'`,
    [user],
  );
  return Number(rows[0]!.count);
}

async function collaborationListensOf(user: string): Promise<number> {
  const { rows } = await server().pool.query<{ count: string }>(
    "SELECT count(*) AS count FROM pg_stat_activity WHERE usename = $1 AND query = 'LISTEN verbatim_collaboration'",
    [user],
  );
  return Number(rows[0]!.count);
}

/** The pool is bounded (4) whatever runs at once: searches, opens and working together's runs share it. */
const poolSize = 4;

/**
 * The app's connections as `user` once they settle at `expected`, or what they were after 2 s:
 * a backend leaves the server's list a moment after the app closed its connection.
 */
async function settledBackendsOf(user: string, expected: number): Promise<number> {
  const until = Date.now() + 2000;
  let count = await backendsOf(user);
  while (count !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    count = await backendsOf(user);
  }
  return count;
}

async function publishAs(user: string, transcriptId: string, title: string): Promise<void> {
  const connection = connectionAs(server(), user);
  try {
    await new NewsroomArchive(connection).apply({
      kind: 'publish',
      publication: samplePublication(transcriptId, 1, { title }),
    });
  } finally {
    await connection.close();
  }
}

describe('searching the newsroom of Settings from the app', () => {
  it('keeps one pool (at most 4 connections) for every search and open, and closes it when Settings change or the app quits', async () => {
    await publishAs('ana', 'harbour', 'The harbour master');
    const { services, call } = app();
    await call('newsroom.setSettings', { address: server().urlFor('cleo'), password: passwordOf('cleo') });
    for (const text of ['h', 'ha', 'harb', 'harbour']) {
      const page = await call<NewsroomSearchPage>('newsroom.search', { text });
      expect(page.hits[0]).toMatchObject({ reporter: 'ana', desk: 'City', title: 'The harbour master' });
    }
    await call('newsroom.open', { reporter: 'ana', transcriptId: 'harbour' });
    const kept = await backendsOf('cleo');
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept).toBeLessThanOrEqual(poolSize);
    await expect.poll(() => collaborationListensOf('cleo')).toBe(1);

    // Another reporter in Settings: the connections as cleo go, the next search logs in as ben.
    await call('newsroom.setSettings', { address: server().urlFor('ben'), password: passwordOf('ben') });
    expect(await settledBackendsOf('cleo', 0)).toBe(0);
    await expect.poll(() => collaborationListensOf('cleo')).toBe(0);
    await call('newsroom.search', { text: 'harbour' });
    expect(await backendsOf('ben')).toBeGreaterThanOrEqual(1);
    expect(await backendsOf('ben')).toBeLessThanOrEqual(poolSize);

    await services.close();
    expect(await settledBackendsOf('ben', 0)).toBe(0);
    await expect.poll(() => collaborationListensOf('ben')).toBe(0);
  });

  it("while a page watches, a colleague's publish is pushed as newsroom.changed; unwatched, the LISTEN closes", async () => {
    const { call, nextEvent } = app();
    await call('newsroom.setSettings', { address: server().urlFor('ben'), password: passwordOf('ben') });
    expect(await call('newsroom.watch', { watcher: 'page-1', watching: true })).toEqual({ watching: true });
    // The search's pool and the search's LISTEN on its own connection.
    await call('newsroom.search', { text: 'harbour' });
    const searchListens = async () =>
      Number(
        (
          await server().pool.query<{ count: string }>(
            "SELECT count(*) AS count FROM pg_stat_activity WHERE usename = 'ben' AND query = 'LISTEN verbatim_newsroom'",
          )
        ).rows[0]!.count,
      );
    expect(await searchListens()).toBe(1);

    const changed = nextEvent('newsroom.changed');
    const publishedAt = Date.now();
    await publishAs('ana', 'ferry', 'The ferry timetable');
    await changed;
    expect(Date.now() - publishedAt).toBeLessThan(1000);
    const page = await call<NewsroomSearchPage>('newsroom.search', { text: 'harbour', limit: 200 });
    expect(page.hits.map((hit) => hit.title)).toContain('The ferry timetable');

    expect(await call('newsroom.watch', { watcher: 'page-1', watching: false })).toEqual({ watching: false });
    await expect.poll(searchListens, { timeout: 2_000 }).toBe(0);
  });

  it('a watch with no newsroom set says what to set, and watches nothing', async () => {
    const { call } = app();
    await expect(call('newsroom.watch', { watcher: 'page-1', watching: true })).rejects.toThrow(
      "No newsroom is set yet: enter its address and your password in Settings, as your newsroom's administrator gave them.",
    );
    expect(await call('newsroom.watch', { watcher: 'page-1', watching: false })).toEqual({ watching: false });
  });
});
