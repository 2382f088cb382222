import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { composeServices, type ComposedServices } from './compose';
import { MemorySecrets } from './core/secrets/secret-store';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from './core/library/completed-transcript.test-kit';
import type { NewsroomAccess } from './core/newsroom/newsroom-address';
import type { NewsroomPublicationRecord } from './core/library/library';
import { archivedState, passwordOf, setUpSampleNewsroom } from './core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from './core/newsroom/newsroom-server.test-kit';

const server = useNewsroomServer();
beforeAll(() => setUpSampleNewsroom(server()));

const open: ComposedServices[] = [];
afterEach(async () => {
  for (const services of open.splice(0)) await services.close();
});

async function composedWithInterview(access: () => NewsroomAccess | undefined): Promise<ComposedServices> {
  const services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-compose-newsroom-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets({}),
    newsroomAccess: access,
  });
  open.push(services);
  await storeFinished(
    services.core.library,
    'harbour',
    'Harbour interview',
    completedTranscriptFromLines([['A', 'The harbour opens at dawn.', 0]], misheardTimings, {
      transcript: { id: 'remote-harbour', language_code: 'en' },
    }),
  );
  return services;
}

describe('the app publishing to the newsroom (composeServices)', () => {
  it('with no newsroom set, publishing queues and waits; once one is set, the next kick publishes it', async () => {
    // Settings as the reporter fills them in: nothing at first.
    const settings: { access?: NewsroomAccess } = {};
    const services = await composedWithInterview(() => settings.access);
    const queued = await services.newsroom.publish('harbour', {
      desk: 'City',
      confidential: false,
      withAudio: false,
    });
    expect(queued).toMatchObject({ state: 'waiting', revisionRequested: 1 });
    await services.newsroom.kick();
    expect(await services.core.library.newsroomOutboxSize()).toBe(1);

    settings.access = { address: { ...server().admin, user: 'ana' }, password: passwordOf('ana') };
    await services.newsroom.kick();
    expect(await services.core.library.newsroomPublication('harbour')).toMatchObject({
      state: 'published',
      revisionPublished: 1,
    });
    expect(await archivedState(server(), 'ana', 'harbour')).toMatchObject({ revision: 1, sentences: 1 });
  });

  it('a publish is sent without being asked to, and the app still closes in order', async () => {
    const access = { address: { ...server().admin, user: 'ben' }, password: passwordOf('ben') };
    const services = await composedWithInterview(() => access);
    // The queued state is told first, then the published one.
    const states: string[] = [];
    const published = new Promise<NewsroomPublicationRecord>((resolve) =>
      services.newsroomPublicationChanged.subscribe((publication) => {
        states.push(publication.state);
        if (publication.state === 'published') resolve(publication);
      }),
    );
    await services.newsroom.publish('harbour', { desk: 'City', confidential: true, withAudio: false });
    expect(await published).toMatchObject({
      transcriptId: 'harbour',
      state: 'published',
      revisionPublished: 1,
    });
    expect(states).toEqual(['waiting', 'published']);
    expect(await archivedState(server(), 'ben', 'harbour')).toMatchObject({ revision: 1 });
    await services.close();
  });
});
