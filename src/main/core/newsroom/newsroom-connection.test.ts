import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import { freePort } from '../../../../scripts/newsroom/local-postgres';
import { parseNewsroomAddress, type NewsroomAddress } from './newsroom-address';
import { NewsroomConnection, type NewsroomBounds } from './newsroom-connection';
import { createNewsroomLogin } from './newsroom-desks';
import { useNewsroomServer } from './newsroom-server.test-kit';

// 127.0.0.2 is this machine too, but not one of the names Verbatim trusts without TLS: a "remote" host.
const server = useNewsroomServer({ listenAddresses: ['127.0.0.1', '127.0.0.2'] });
const password = 'pw-Connection-Test-5b1e';
const quick: NewsroomBounds = { connectTimeoutMs: 500, statementTimeoutMs: 300 };

/** The failure of `work` on a connection to `address`, checked to be a VerbatimError that never holds the password. */
async function failureOf(
  address: NewsroomAddress,
  work: (newsroom: NewsroomConnection) => Promise<unknown>,
  secret = password,
): Promise<VerbatimError> {
  const newsroom = new NewsroomConnection(address, secret, quick);
  try {
    const failure = await work(newsroom).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(VerbatimError);
    expect(JSON.stringify((failure as VerbatimError).toPayload())).not.toContain(secret);
    return failure as VerbatimError;
  } finally {
    await newsroom.close();
  }
}

const reporter = () => parseNewsroomAddress(server().urlFor('ana'));

describe('a newsroom connection, against a real PostgreSQL', () => {
  it('answers a parameterised query as the reporter', async () => {
    const admin = await server().pool.connect();
    try {
      await createNewsroomLogin(admin, 'ana', password);
    } finally {
      admin.release();
    }
    const newsroom = new NewsroomConnection(reporter(), password, quick);
    try {
      expect(await newsroom.query('SELECT current_user AS "user", $1::text AS said', ['hello'])).toEqual([
        { user: 'ana', said: 'hello' },
      ]);
    } finally {
      await newsroom.close();
    }
  });

  it('a wrong password and an unknown user are refused in words, naming the user and what to check', async () => {
    const wrong = await failureOf(
      reporter(),
      (newsroom) => newsroom.query('SELECT 1'),
      'not-the-password-3c',
    );
    expect(wrong).toMatchObject({ code: 'unauthorized', details: { code: '28P01' } });
    expect(wrong.message).toBe(
      `The newsroom at ${server().urlFor('ana')} refused the password for ana, or has no such user: check the user in VERBATIM_NEWSROOM_URL and VERBATIM_NEWSROOM_PASSWORD, or ask your newsroom's administrator.`,
    );
    const unknown = await failureOf(parseNewsroomAddress(server().urlFor('nobody')), (newsroom) =>
      newsroom.query('SELECT 1'),
    );
    expect(unknown.message).toContain('refused the password for nobody, or has no such user');
  });

  it('a statement that runs past the bound is stopped by PostgreSQL and said in words', async () => {
    const slow = await failureOf(reporter(), (newsroom) => newsroom.query('SELECT pg_sleep($1)', [5]));
    expect(slow).toMatchObject({ code: 'timeout', details: { code: '57014' } });
    expect(slow.message).toBe(
      `The newsroom at ${server().urlFor('ana')} took too long to answer, and the request was stopped: try again, and tell your newsroom's administrator if it keeps happening.`,
    );
  });

  it('a host that is not this machine gets TLS verify-full: a server without TLS is refused before the password is sent', async () => {
    const remote = await failureOf(parseNewsroomAddress(server().urlFor('ana', '127.0.0.2')), (newsroom) =>
      newsroom.query('SELECT 1'),
    );
    expect(remote).toMatchObject({ code: 'forbidden' });
    expect(remote.message).toBe(
      `The newsroom at ${server().urlFor('ana', '127.0.0.2')} does not offer an encrypted connection (TLS), so nothing was sent: ask your newsroom's administrator to turn TLS on.`,
    );
  });

  it('a server that accepts the connection and never answers is given up at the connect bound', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    const port = await new Promise<number>((resolvePort) =>
      silent.listen(0, '127.0.0.1', () => resolvePort((silent.address() as { port: number }).port)),
    );
    try {
      const unanswered = await failureOf({ ...reporter(), port }, (newsroom) => newsroom.query('SELECT 1'));
      expect(unanswered).toMatchObject({ code: 'timeout' });
      expect(unanswered.message).toBe(
        `The newsroom at postgres://ana@127.0.0.1:${port}/verbatim did not answer in time: check your network connection and the address in VERBATIM_NEWSROOM_URL, then try again.`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => silent.close(closed));
    }
  });

  it('a port nothing listens on, and a host that cannot be found, are said in words', async () => {
    const port = await freePort();
    const refused = await failureOf({ ...reporter(), port }, (newsroom) => newsroom.query('SELECT 1'));
    expect(refused).toMatchObject({ code: 'network', details: { code: 'ECONNREFUSED' } });
    expect(refused.message).toContain('cannot be reached: nothing answers there.');
    const unknownHost = await failureOf({ ...reporter(), host: 'newsroom.invalid' }, (newsroom) =>
      newsroom.query('SELECT 1'),
    );
    expect(unknownHost).toMatchObject({ code: 'network' });
    expect(unknownHost.message).toBe(
      "The newsroom's host newsroom.invalid cannot be found: check the address in VERBATIM_NEWSROOM_URL and your network connection.",
    );
  });

  // Last: it stops the file's server.
  it('a server that vanishes under an open connection is said in words, and then as unreachable', async () => {
    const newsroom = new NewsroomConnection(reporter(), password, quick);
    try {
      const lost = await newsroom
        .withClient(async (client) => {
          await client.query('SELECT 1');
          await server().stop();
          return client.query('SELECT 1');
        })
        .catch((error: unknown) => error);
      expect(lost).toBeInstanceOf(VerbatimError);
      expect((lost as VerbatimError).message).toBe(
        `The connection to the newsroom at ${server().urlFor('ana')} was lost: the server stopped or the network went away. Try again in a moment, or ask your newsroom's administrator whether it is running.`,
      );
      const gone = await newsroom.query('SELECT 1').catch((error: unknown) => error);
      expect(gone).toMatchObject({ code: 'network', details: { code: 'ECONNREFUSED' } });
    } finally {
      await newsroom.close();
    }
  });
});
