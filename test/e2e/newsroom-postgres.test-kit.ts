import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import {
  freePort,
  newsroomDatabase,
  startLocalPostgres,
  type LocalPostgres,
} from '../../scripts/newsroom/local-postgres';
import { newsroomAddressText } from '../../src/main/core/newsroom/newsroom-address';
import { NewsroomConnection } from '../../src/main/core/newsroom/newsroom-connection';
import { addDeskMember, createDesk, createNewsroomLogin } from '../../src/main/core/newsroom/newsroom-desks';
import { migrateNewsroom } from '../../src/main/core/newsroom/newsroom-migrations';
import { createSampleNewsroom, passwordOf } from '../../src/main/core/newsroom/newsroom-archive.test-kit';

/** A real PostgreSQL for one e2e file (issue #35: never a stand-in), with its newsroom schema. */
export interface E2eNewsroom {
  postgres: LocalPostgres;
  /** The `postgres://user@…` address Settings takes for this login. */
  addressOf(user: string): string;
  /** Runs SQL as the administrator, to look at the archive as it is. */
  asAdmin<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts the server, migrates it and makes each desk and each reporter on their desk. `port`
 * starts it where an address already points, as a newsroom that comes back.
 */
export async function startE2eNewsroom(
  members: readonly { user: string; password: string; desk: string }[],
  { port }: { port?: number } = {},
): Promise<E2eNewsroom> {
  const adminPassword = randomBytes(18).toString('base64url');
  const postgres = await startLocalPostgres({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-newsroom-e2e-')),
    port: port ?? (await freePort()),
    password: adminPassword,
    persistent: false,
  });
  const admin = new NewsroomConnection(
    { user: postgres.user, host: '127.0.0.1', port: postgres.port, database: newsroomDatabase },
    adminPassword,
  );
  await admin.withClient(async (client) => {
    await migrateNewsroom(client);
    for (const desk of new Set(members.map((member) => member.desk))) await createDesk(client, desk);
    for (const { user, password, desk } of members) {
      await createNewsroomLogin(client, user, password);
      await addDeskMember(client, { desk, user, role: 'reporter' });
    }
  });
  return {
    postgres,
    addressOf: (user) =>
      newsroomAddressText({ user, host: '127.0.0.1', port: postgres.port, database: newsroomDatabase }),
    asAdmin: (work) => admin.withClient(work),
    stop: async () => {
      await admin.close();
      await postgres.stop();
    },
  };
}

/** A real PostgreSQL for one e2e file with the archive tests' sample newsroom (desks City and Politics, ana, ben, cleo, dev, olga). */
export interface SampleE2eNewsroom {
  /** The `postgres://user@…` address Settings takes for this login. */
  addressOf(user: string): string;
  /** A connection as this sample login (its password is `passwordOf(user)`), for a colleague's publish; the caller closes it. */
  connectAs(user: string): NewsroomConnection;
  stop(): Promise<void>;
}

export async function startSampleE2eNewsroom(): Promise<SampleE2eNewsroom> {
  const adminPassword = randomBytes(18).toString('base64url');
  const postgres = await startLocalPostgres({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-newsroom-e2e-')),
    port: await freePort(),
    password: adminPassword,
    persistent: false,
  });
  const address = (user: string) => ({
    user,
    host: '127.0.0.1',
    port: postgres.port,
    database: newsroomDatabase,
  });
  const admin = new NewsroomConnection(address(postgres.user), adminPassword);
  try {
    await admin.withClient(createSampleNewsroom);
  } finally {
    await admin.close();
  }
  return {
    addressOf: (user) => newsroomAddressText(address(user)),
    connectAs: (user) => new NewsroomConnection(address(user), passwordOf(user)),
    stop: () => postgres.stop(),
  };
}
