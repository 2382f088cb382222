import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../base/clock';
import { passwordOf, setUpSampleNewsroom } from '../newsroom/newsroom-archive.test-kit';
import type { NewsroomAccess } from '../newsroom/newsroom-address';
import { useNewsroomServer } from '../newsroom/newsroom-server.test-kit';
import { collaborationChannel } from '../newsroom/newsroom-watch';
import { Collaboration, type CollaborationKind } from './collaboration';

/** Working together kept live (issue #36): runs at start, on a change here, on the newsroom's word. */
const server = useNewsroomServer();
beforeAll(async () => {
  await setUpSampleNewsroom(server());
});

const opened: Collaboration[] = [];
afterEach(() => {
  for (const collaboration of opened.splice(0)) collaboration.dispose();
});

function anaAccess(): NewsroomAccess {
  return { address: { ...server().admin, user: 'ana' }, password: passwordOf('ana') };
}

/** A Collaboration whose kinds count their runs. */
function countingCollaboration(access: () => NewsroomAccess | undefined) {
  const runs: Record<CollaborationKind, number> = { glossary: 0, story: 0 };
  const collaboration = new Collaboration({
    access: () => Promise.resolve(access()),
    clock: systemClock,
    watchRetryMs: 50,
    kinds: {
      glossary: async () => void runs.glossary++,
      story: async () => void runs.story++,
    },
  });
  opened.push(collaboration);
  return { collaboration, runs };
}

const listeners = async (user: string): Promise<number> =>
  (
    await server().pool.query(`SELECT 1 FROM pg_stat_activity WHERE usename = $1 AND query = $2`, [
      user,
      `LISTEN ${collaborationChannel}`,
    ])
  ).rowCount ?? 0;

describe('Collaboration', () => {
  it('runs every kind at start, listens once the newsroom answered, and runs the kind a notification names', async () => {
    const { collaboration, runs } = countingCollaboration(anaAccess);
    await collaboration.start();
    await vi.waitFor(() => expect(collaboration.listening).toBe(true));
    expect(await listeners('ana')).toBe(1);
    const before = { ...runs };
    await server().pool.query('SELECT pg_notify($1, $2)', [collaborationChannel, 'story']);
    await vi.waitFor(() => expect(runs.story).toBe(before.story + 1), { timeout: 1000 });
    expect(runs.glossary).toBe(before.glossary);
    await collaboration.changed('glossary');
    expect(runs.glossary).toBe(before.glossary + 1);
  });

  it('after its connection is dropped, listens again and runs every kind, as anything may have been missed', async () => {
    const { collaboration, runs } = countingCollaboration(anaAccess);
    await collaboration.start();
    await vi.waitFor(() => expect(collaboration.listening).toBe(true));
    const before = { ...runs };
    await server().pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'ana' AND query = $1`,
      [`LISTEN ${collaborationChannel}`],
    );
    await vi.waitFor(
      () => {
        expect(runs.story).toBeGreaterThan(before.story);
        expect(runs.glossary).toBeGreaterThan(before.glossary);
      },
      { timeout: 5000 },
    );
  });

  it('does nothing while no newsroom is set, and follows Settings when one is', async () => {
    let access: NewsroomAccess | undefined;
    const { collaboration, runs } = countingCollaboration(() => access);
    await collaboration.start();
    expect(runs).toEqual({ glossary: 0, story: 0 });
    expect(collaboration.listening).toBe(false);
    access = { address: { ...server().admin, user: 'ben' }, password: passwordOf('ben') };
    await collaboration.refresh();
    expect(runs).toEqual({ glossary: 1, story: 1 });
    await vi.waitFor(() => expect(collaboration.listening).toBe(true));
    // Another login in Settings: the old one's connection goes.
    access = { address: { ...server().admin, user: 'cleo' }, password: passwordOf('cleo') };
    await collaboration.refresh();
    await vi.waitFor(async () => {
      expect(await listeners('ben')).toBe(0);
      expect(await listeners('cleo')).toBe(1);
    });
  });

  it('disposing closes its connection', async () => {
    const { collaboration } = countingCollaboration(() => ({
      address: { ...server().admin, user: 'dev' },
      password: passwordOf('dev'),
    }));
    await collaboration.start();
    await vi.waitFor(async () => expect(await listeners('dev')).toBe(1));
    collaboration.dispose();
    await vi.waitFor(async () => expect(await listeners('dev')).toBe(0));
  });
});
