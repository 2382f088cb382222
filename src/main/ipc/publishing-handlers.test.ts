import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../scripts/newsroom/local-postgres';
import { composeServices, type ComposedServices } from '../compose';
import { MemorySecrets } from '../core/secrets/secret-store';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from '../core/library/completed-transcript.test-kit';
import { archivedState, passwordOf, setUpSampleNewsroom } from '../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../core/newsroom/newsroom-server.test-kit';
import { createDispatcher } from './dispatcher';
import { createHandlers } from './create-handlers';
import { wireEvents } from './events';
import { unwrap } from '../../shared/ipc/envelope';
import type { NewsroomDesks, NewsroomPublication } from '../../shared/ipc/newsroom-contract';

const server = useNewsroomServer();
beforeAll(() => setUpSampleNewsroom(server()));

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

type Published = { publications: NewsroomPublication[]; refused: { id: string; message: string }[] };

/**
 * The app's services over a library holding one finished interview, and the events it emits.
 * Each test names its own interview: the archive outlives a test, and skips a revision it passed.
 */
async function app(interview: string): Promise<{
  services: ComposedServices;
  call: <T>(method: string, input?: unknown) => Promise<T>;
  /** The next publicationChanged event of `id` in this state. */
  changed: (id: string, state: NewsroomPublication['state']) => Promise<NewsroomPublication>;
  settle: (user: string, address?: string) => Promise<void>;
}> {
  const services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-publishing-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets(),
  });
  const waiters: { id: string; state: string; resolve: (publication: NewsroomPublication) => void }[] = [];
  const wiring = wireEvents(services, (event, payload) => {
    if (event !== 'newsroom.publicationChanged') return;
    const publication = payload as NewsroomPublication;
    for (const waiter of waiters.filter(
      (each) => each.id === publication.transcriptId && each.state === publication.state,
    )) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(publication);
    }
  });
  opened.push({ close: async () => (wiring.dispose(), await services.close()) });
  await storeFinished(
    services.core.library,
    interview,
    'Harbour interview',
    completedTranscriptFromLines([['A', 'The harbour opens at dawn.', 0]], misheardTimings, {
      transcript: { id: `remote-${interview}`, language_code: 'en' },
    }),
  );
  const dispatch = createDispatcher(createHandlers(services));
  const call = async <T>(method: string, input?: unknown) => unwrap(await dispatch(method, input)) as T;
  return {
    services,
    call,
    changed: (id, state) => new Promise((resolve) => waiters.push({ id, state, resolve })),
    settle: async (user, address = server().urlFor(user)) =>
      void (await call('newsroom.setSettings', { address, password: passwordOf(user) })),
  };
}

describe('publishing from the app (newsroom.publish, unpublish, desks, publications)', () => {
  it('lists the reporter’s desks, and says why none is listed when no newsroom is set', async () => {
    const { call, settle } = await app('harbour-desks');
    expect(await call<NewsroomDesks>('newsroom.desks')).toEqual({
      user: null,
      desks: [],
      message:
        "No newsroom is set yet: enter its address and your password in Settings, as your newsroom's administrator gave them.",
      lastDesk: null,
    });
    await settle('ana');
    expect(await call<NewsroomDesks>('newsroom.desks')).toEqual({
      user: 'ana',
      desks: [{ desk: 'City', role: 'reporter' }],
      message: null,
      lastDesk: null,
    });
    await settle('olga');
    expect((await call<NewsroomDesks>('newsroom.desks')).message).toBe(
      'olga is on no desk of the newsroom yet: ask its administrator to add you to one, then publish.',
    );
  });

  it('publishes, publishes the next revision, and takes it out, each change an event and a state', async () => {
    const { call, changed, settle } = await app('harbour-revisions');
    await settle('ana');
    expect(await call('newsroom.publications', { ids: ['harbour-revisions'] })).toEqual([]);
    const first = changed('harbour-revisions', 'published');
    const queued = await call<Published>('newsroom.publish', {
      ids: ['harbour-revisions'],
      desk: 'City',
      confidential: true,
    });
    expect(queued.refused).toEqual([]);
    expect(queued.publications).toMatchObject([
      { transcriptId: 'harbour-revisions', state: 'waiting', revisionRequested: 1 },
    ]);
    expect(await first).toMatchObject({ revisionPublished: 1, desk: 'City', confidential: true });
    expect(await archivedState(server(), 'ana', 'harbour-revisions')).toMatchObject({ revision: 1 });

    const second = changed('harbour-revisions', 'published');
    await call('newsroom.publish', { ids: ['harbour-revisions'], desk: 'City', confidential: false });
    expect(await second).toMatchObject({ revisionPublished: 2, confidential: false });
    expect(await call('newsroom.publications', { ids: ['harbour-revisions', 'other'] })).toMatchObject([
      { transcriptId: 'harbour-revisions', state: 'published', revisionPublished: 2 },
    ]);

    const out = changed('harbour-revisions', 'unpublished');
    expect(await call('newsroom.unpublish', { id: 'harbour-revisions' })).toMatchObject({
      state: 'unpublishing',
    });
    expect(await out).toMatchObject({ revisionPublished: null });
    expect(await archivedState(server(), 'ana', 'harbour-revisions')).toBeNull();
  });

  it('refuses what cannot be queued with why, and a desk the reporter is not on fails with the newsroom’s reason', async () => {
    const { call, changed, settle } = await app('harbour-refused');
    await settle('ana');
    const failed = changed('harbour-refused', 'failed');
    const answer = await call<Published>('newsroom.publish', {
      ids: ['nowhere', 'harbour-refused'],
      desk: 'Politics',
      confidential: false,
    });
    expect(answer.refused.map((refusal) => refusal.id)).toEqual(['nowhere']);
    expect(answer.refused[0]?.message).toMatch(/^[^.]+\.$/);
    expect(answer.publications.map((publication) => publication.transcriptId)).toEqual(['harbour-refused']);
    expect((await failed).error).toBe(
      "You are not on the desk Politics in this newsroom, so you cannot publish to it: publish to one of your desks, or ask your newsroom's administrator to add you.",
    );
  });

  it('offline, offers the desk used last and queues; once the newsroom is reachable, it is published', async () => {
    const { call, changed, settle } = await app('harbour-offline');
    await settle('ana');
    const first = changed('harbour-offline', 'published');
    await call('newsroom.publish', { ids: ['harbour-offline'], desk: 'City', confidential: false });
    await first;

    const closed = `postgres://ana@127.0.0.1:${await freePort()}/verbatim`;
    await settle('ana', closed);
    const desks = await call<NewsroomDesks>('newsroom.desks');
    expect(desks).toMatchObject({ user: null, desks: [], lastDesk: 'City' });
    expect(desks.message).toMatch(
      /^The newsroom cannot be reached now \(.+\): publish to the desk you used before, and it is sent when the newsroom answers\.$/,
    );
    const queued = await call<Published>('newsroom.publish', {
      ids: ['harbour-offline'],
      desk: 'City',
      confidential: false,
    });
    expect(queued.publications).toMatchObject([{ state: 'waiting', revisionRequested: 2 }]);

    const back = changed('harbour-offline', 'published');
    await settle('ana');
    expect(await back).toMatchObject({ revisionPublished: 2 });
  });
});
