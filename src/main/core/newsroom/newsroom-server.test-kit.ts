import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
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
  /**
   * A pool on the `verbatim` database as the superuser, for fixtures and for looking behind the
   * app (a new one after `restart`).
   */
  readonly pool: pg.Pool;
  /** The address of `user` on this server, as VERBATIM_NEWSROOM_URL takes it. */
  urlFor(user: string, host?: string): string;
  /** Stops the server (a test that makes it vanish); the file's end stops it too. */
  stop(): Promise<void>;
  /** Starts a stopped server again on its port, with its data as it was (a newsroom back after an outage). */
  restart(): Promise<void>;
}

export function useNewsroomServer(
  options: { listenAddresses?: readonly string[]; tls?: { certFile: string; keyFile: string } } = {},
): () => NewsroomServer {
  let server: NewsroomServer | undefined;
  let postgres: LocalPostgres | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    const adminPassword = randomBytes(18).toString('base64url');
    dataDir = mkdtempSync(join(tmpdir(), 'verbatim-newsroom-'));
    const port = await freePort();
    const start = () =>
      startLocalPostgres({
        dataDir: dataDir!,
        port,
        password: adminPassword,
        // Kept across a stop so that `restart` finds the newsroom as it was; removed after the file.
        persistent: true,
        listenAddresses: options.listenAddresses,
        tls: options.tls,
      });
    postgres = await start();
    const admin = { user: postgres.user, host: '127.0.0.1', port, database: newsroomDatabase };
    const newPool = () => {
      const pool = new pg.Pool({ ...admin, password: adminPassword, max: 4 });
      pool.on('error', () => {});
      return pool;
    };
    let pool = newPool();
    let stopped: Promise<void> | undefined;
    server = {
      port,
      admin,
      adminPassword,
      get pool() {
        return pool;
      },
      urlFor: (user, host = '127.0.0.1') => newsroomAddressText({ ...admin, user, host }),
      stop: () =>
        (stopped ??= (async () => {
          await pool.end();
          await postgres?.stop();
        })()),
      restart: async () => {
        if (!stopped) throw new Error('restart() starts a stopped server: stop() it first.');
        await stopped;
        postgres = await start();
        pool = newPool();
        stopped = undefined;
      },
    };
  });
  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!server) throw new Error('The newsroom server starts in beforeAll: use it inside a test.');
    return server;
  };
}
