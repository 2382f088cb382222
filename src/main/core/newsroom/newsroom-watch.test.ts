import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NewsroomArchive } from './newsroom-archive';
import {
  connectionAs,
  passwordOf,
  samplePublication,
  setUpSampleNewsroom,
  sqlAs,
} from './newsroom-archive.test-kit';
import { useNewsroomServer } from './newsroom-server.test-kit';
import { collaborationChannel, newsroomChannel, watchNewsroom, type NewsroomWatch } from './newsroom-watch';

/** A colleague's publish reaches an open newsroom search (issue #35, point 7). */
const server = useNewsroomServer();

beforeAll(async () => {
  await setUpSampleNewsroom(server());
});

const watches: NewsroomWatch[] = [];
afterAll(async () => {
  for (const watch of watches) await watch.dispose();
});

/** A watch as `user` that counts its changes, and waits for the next one within `withinMs`. */
async function watchAs(user: string) {
  let changes = 0;
  let waiting: (() => void) | undefined;
  const watch = watchNewsroom(
    { address: { ...server().admin, user }, password: passwordOf(user) },
    () => {
      changes++;
      waiting?.();
    },
    { firstRetryMs: 50 },
  );
  watches.push(watch);
  await watch.ready;
  return {
    watch,
    changes: () => changes,
    nextChange(withinMs = 1000): Promise<void> {
      return new Promise((resolve, reject) => {
        const late = setTimeout(() => reject(new Error(`no change within ${withinMs} ms`)), withinMs);
        waiting = () => {
          clearTimeout(late);
          waiting = undefined;
          resolve();
        };
      });
    },
  };
}

async function publishAs(user: string, transcriptId: string, confidential = false): Promise<void> {
  const connection = connectionAs(server(), user);
  try {
    await new NewsroomArchive(connection).apply({
      kind: 'publish',
      publication: samplePublication(transcriptId, 1, { confidential, title: `Title of ${transcriptId}` }),
    });
  } finally {
    await connection.close();
  }
}

describe('watchNewsroom', () => {
  it("a colleague's publish and unpublish reach an open watch within a second", async () => {
    const ana = await watchAs('ana');
    const published = ana.nextChange();
    await publishAs('ben', 'ben-first');
    await published;
    const withdrawn = ana.nextChange();
    const ben = connectionAs(server(), 'ben');
    try {
      await new NewsroomArchive(ben).apply({ kind: 'unpublish', transcriptId: 'ben-first', revision: 1 });
    } finally {
      await ben.close();
    }
    await withdrawn;
  });

  it('the notification says nothing of what was published: no title, no id, no desk', async () => {
    const olga = await sqlAs(server(), 'olga');
    try {
      const heard = new Promise<string>((resolve) =>
        olga.on('notification', (message) => resolve(message.payload ?? '')),
      );
      await olga.query(`LISTEN ${newsroomChannel}`);
      await publishAs('ana', 'the-secret-source', true);
      expect(await heard).toBe('');
    } finally {
      await olga.end();
    }
  });

  it('after the server drops its connection, the watch connects again, says so, and hears the next publish', async () => {
    const ben = await watchAs('ben');
    const reconnected = ben.nextChange(5000);
    const dropped = await server().pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'ben' AND query LIKE 'LISTEN%'`,
    );
    expect(dropped.rowCount).toBe(1);
    await reconnected;
    const published = ben.nextChange();
    await publishAs('cleo', 'cleo-after-restart');
    await published;
  });

  it('disposing closes its connection and it hears nothing more', async () => {
    const dev = await watchAs('dev');
    const listening = () =>
      server()
        .pool.query(`SELECT 1 FROM pg_stat_activity WHERE usename = 'dev' AND query LIKE 'LISTEN%'`)
        .then((found) => found.rowCount);
    expect(await listening()).toBe(1);
    await dev.watch.dispose();
    await vi.waitFor(async () => expect(await listening()).toBe(0));
    const before = dev.changes();
    const other = await watchAs('olga');
    const heard = other.nextChange();
    await publishAs('ana', 'after-dispose');
    await heard;
    expect(dev.changes()).toBe(before);
  });

  it("a watch on another channel hears that channel's payloads only", async () => {
    const heard: (string | undefined)[] = [];
    const watch = watchNewsroom(
      { address: { ...server().admin, user: 'cleo' }, password: passwordOf('cleo') },
      (payload) => heard.push(payload),
      { channel: collaborationChannel, firstRetryMs: 50 },
    );
    watches.push(watch);
    await watch.ready;
    await publishAs('ana', 'not-for-this-channel');
    await server().pool.query(`SELECT pg_notify($1, 'story')`, [collaborationChannel]);
    await vi.waitFor(() => expect(heard).toEqual(['story']));
  });

  it('refuses a channel name that is not a plain one before connecting', () => {
    expect(() =>
      watchNewsroom({ address: server().admin, password: 'x' }, () => undefined, { channel: 'a; DROP' }),
    ).toThrow('Not a channel name');
  });
});
