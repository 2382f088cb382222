import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import {
  freePort,
  newsroomDatabase,
  startLocalPostgres,
  type LocalPostgres,
} from '../../../../scripts/newsroom/local-postgres';
import { newsroomAddressText, type NewsroomAddress } from './newsroom-address';

/**
 * A throwaway real PostgreSQL for one test file (issue #35: never a stand-in such as pg-mem):
 * started before its tests on a free port with its data under the system's temporary folder,
 * stopped and removed after them.
 */
export interface NewsroomServer {
  port: number;
  /** The superuser's address (the owner of the `verbatim` database) and password. */
  admin: NewsroomAddress;
  adminPassword: string;
  /** A pool on the `verbatim` database as the superuser, for fixtures and for looking behind the app. */
  pool: pg.Pool;
  /** The address of `user` on this server, as VERBATIM_NEWSROOM_URL takes it. */
  urlFor(user: string, host?: string): string;
  /** Stops the server (a test that makes it vanish); the file's end stops it too. */
  stop(): Promise<void>;
}

export function useNewsroomServer(
  options: { listenAddresses?: readonly string[]; tls?: { certFile: string; keyFile: string } } = {},
): () => NewsroomServer {
  let server: NewsroomServer | undefined;
  let postgres: LocalPostgres | undefined;
  beforeAll(async () => {
    const adminPassword = randomBytes(18).toString('base64url');
    postgres = await startLocalPostgres({
      dataDir: mkdtempSync(join(tmpdir(), 'verbatim-newsroom-')),
      port: await freePort(),
      password: adminPassword,
      persistent: false,
      listenAddresses: options.listenAddresses,
      tls: options.tls,
    });
    const admin = { user: postgres.user, host: '127.0.0.1', port: postgres.port, database: newsroomDatabase };
    const pool = new pg.Pool({ ...admin, password: adminPassword, max: 4 });
    pool.on('error', () => {});
    const running = postgres;
    let stopped: Promise<void> | undefined;
    server = {
      port: running.port,
      admin,
      adminPassword,
      pool,
      urlFor: (user, host = '127.0.0.1') => newsroomAddressText({ ...admin, user, host }),
      stop: () =>
        (stopped ??= (async () => {
          await pool.end();
          await running.stop();
        })()),
    };
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('The newsroom server starts in beforeAll: use it inside a test.');
    return server;
  };
}
