import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../scripts/newsroom/local-postgres';
import { composeServices, type ComposedServices } from '../compose';
import { MemorySecrets } from '../core/secrets/secret-store';
import { createLogger, MemorySink } from '../core/log/logger';
import { heldSecrets } from '../core/log/open-log';
import { addDeskMember, createDesk, createNewsroomLogin } from '../core/newsroom/newsroom-desks';
import { migrateNewsroom } from '../core/newsroom/newsroom-migrations';
import { useNewsroomServer } from '../core/newsroom/newsroom-server.test-kit';
import { createDispatcher } from './dispatcher';
import { createHandlers } from './create-handlers';
import { unwrap } from '../../shared/ipc/envelope';
import { VerbatimError } from '../../shared/errors';
import type { NewsroomSearchPage, NewsroomTranscript } from '../../shared/newsroom-search';
import { NewsroomArchive } from '../core/newsroom/newsroom-archive';
import { samplePublication } from '../core/newsroom/newsroom-archive.test-kit';
import { NewsroomConnection } from '../core/newsroom/newsroom-connection';

const server = useNewsroomServer();
/** Spaces around it on purpose: a password is kept and sent byte for byte. */
const anaPassword = ' pw Ana 7f3a9c ';

beforeAll(async () => {
  const client = await server().pool.connect();
  try {
    await migrateNewsroom(client);
    await createDesk(client, 'City');
    await createDesk(client, 'Politics');
    await createNewsroomLogin(client, 'ana', anaPassword);
    await addDeskMember(client, { desk: 'City', user: 'ana', role: 'reporter' });
    await addDeskMember(client, { desk: 'Politics', user: 'ana', role: 'editor' });
  } finally {
    client.release();
  }
});

const opened: ComposedServices[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((services) => services.close()));
});

/** The app's services and dispatcher, with the log main keeps (scrubbed of held secrets) in memory. */
function app(): {
  sink: MemorySink;
  secrets: MemorySecrets;
  call: <T>(method: string, input?: unknown) => Promise<T>;
  failure: (method: string, input?: unknown) => Promise<VerbatimError>;
} {
  const sink = new MemorySink();
  const secrets = new MemorySecrets();
  const logger = createLogger({ sinks: [sink], secrets: () => heldSecrets(secrets) });
  const services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-newsroom-settings-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets,
    logger,
  });
  opened.push(services);
  const dispatch = createDispatcher(createHandlers(services), { logger });
  const call = async <T>(method: string, input?: unknown) => unwrap(await dispatch(method, input)) as T;
  return {
    sink,
    secrets,
    call,
    failure: async (method, input) => {
      const error = await call(method, input).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      if (!(error instanceof VerbatimError)) throw new Error(`${method} did not fail in words`);
      return error;
    },
  };
}

type Check = { ok: boolean; message: string };

describe('the newsroom in Settings', () => {
  it('keeps the address in settings and the password in the key store, byte for byte, and tells the page only that one is set', async () => {
    const { call, secrets } = app();
    expect(await call('newsroom.settings')).toEqual({ address: '', passwordSet: false });
    const address = server().urlFor('ana');
    const saved = await call('newsroom.setSettings', { address, password: anaPassword });
    expect(saved).toEqual({ address, passwordSet: true });
    expect(JSON.stringify(saved)).not.toContain('Ana 7f3a9c');
    expect(secrets.peek('newsroomPassword')).toBe(anaPassword);
    expect((await call<{ newsroomAddress: string }>('settings.get')).newsroomAddress).toBe(address);
    // Saving the address again keeps the password; null forgets it.
    expect(await call('newsroom.setSettings', { address })).toEqual({ address, passwordSet: true });
    expect(await call('newsroom.setSettings', { address, password: null })).toEqual({
      address,
      passwordSet: false,
    });
    expect(secrets.peek('newsroomPassword')).toBeUndefined();
  });

  it('refuses a bad address before anything connects, and an address that holds the password without repeating it', async () => {
    const { failure, call } = app();
    expect((await failure('newsroom.setSettings', { address: 'db.example.org/verbatim' })).message).toBe(
      'The newsroom address is not an address: write it as postgres://reporter@db.example.org:5432/verbatim.',
    );
    const withPassword = await failure('newsroom.setSettings', {
      address: `postgres://ana:hunter2secret@127.0.0.1:${server().port}/verbatim`,
    });
    expect(withPassword.message).toBe(
      'The newsroom address must not hold the password: remove it from the address and enter it in the password field instead.',
    );
    expect(JSON.stringify(withPassword)).not.toContain('hunter2secret');
    expect(await call('newsroom.check', { address: 'http://db.example.org/verbatim' })).toEqual({
      ok: false,
      message:
        'The newsroom address must start with postgres://: write it as postgres://reporter@db.example.org:5432/verbatim.',
    });
    expect(await call('newsroom.settings')).toEqual({ address: '', passwordSet: false });
  });

  it('check answers who the reporter is and on which desks, with the stored password', async () => {
    const { call } = app();
    const address = server().urlFor('ana');
    await call('newsroom.setSettings', { address, password: anaPassword });
    expect(await call<Check>('newsroom.check', { address })).toEqual({
      ok: true,
      message: 'Connected as ana: City (reporter), Politics (editor).',
    });
  });

  it('check with a wrong password answers the sentence, and no password reaches an answer or the log', async () => {
    const { call, sink } = app();
    const address = server().urlFor('ana');
    await call('newsroom.setSettings', { address, password: anaPassword });
    const wrong = 'not-Anas-password-91';
    const answer = await call<Check>('newsroom.check', { address, password: wrong });
    expect(answer).toEqual({
      ok: false,
      message: `The newsroom at ${address} refused the password for ana, or has no such user: check the user and the password in Settings, or ask your newsroom's administrator.`,
    });
    // The stored one is trimmed nowhere: without its spaces it is refused too.
    expect(await call<Check>('newsroom.check', { address, password: anaPassword.trim() })).toEqual(answer);
    await call('log.write', { level: 'warn', message: `the page quoted ${anaPassword}` });
    const everything = JSON.stringify(answer) + sink.text();
    expect(everything).not.toContain(wrong);
    expect(everything).not.toContain(anaPassword);
  });

  it('check says what to do when no password is set, and when nothing listens at the address', async () => {
    const { call } = app();
    const address = server().urlFor('ana');
    expect(await call<Check>('newsroom.check', { address })).toEqual({
      ok: false,
      message: 'No newsroom password is set yet: enter the password of ana in Settings.',
    });
    const nothingThere = `postgres://ana@127.0.0.1:${await freePort()}/verbatim`;
    expect(await call<Check>('newsroom.check', { address: nothingThere, password: anaPassword })).toEqual({
      ok: false,
      message: `The newsroom at ${nothingThere} cannot be reached: nothing answers there. Check the address in Settings and your network, or ask your newsroom's administrator whether it is running.`,
    });
  });

  it('search and open read the archive as the reporter of Settings, and say what to set when nothing is', async () => {
    const { call, failure } = app();
    expect((await failure('newsroom.search', { text: 'harbour' })).message).toBe(
      "No newsroom is set yet: enter its address and your password in Settings, as your newsroom's administrator gave them.",
    );
    const ana = new NewsroomConnection({ ...server().admin, user: 'ana' }, anaPassword);
    try {
      await new NewsroomArchive(ana).apply({
        kind: 'publish',
        publication: samplePublication('harbour', 1, { title: 'The harbour master' }),
      });
    } finally {
      await ana.close();
    }
    await call('newsroom.setSettings', { address: server().urlFor('ana'), password: anaPassword });
    const page = await call<NewsroomSearchPage>('newsroom.search', { text: 'harbo', desk: 'City' });
    expect(page.hits.map((hit) => [hit.reporter, hit.transcriptId, hit.title])).toEqual([
      ['ana', 'harbour', 'The harbour master'],
      ['ana', 'harbour', 'The harbour master'],
    ]);
    const opened = await call<NewsroomTranscript>('newsroom.open', {
      reporter: 'ana',
      transcriptId: 'harbour',
    });
    expect(opened).toMatchObject({ reporter: 'ana', desk: 'City', title: 'The harbour master' });
    expect((await failure('newsroom.open', { reporter: 'ben', transcriptId: 'harbour' })).code).toBe(
      'not_found',
    );
    expect((await failure('newsroom.search', { text: 'x', limit: 500 })).code).toBe('invalid_input');
  });
});
