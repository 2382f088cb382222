import pg from 'pg';
import {
  environmentNaming,
  isThisMachine,
  type NewsroomAccess,
  type NewsroomAddress,
  type NewsroomNaming,
} from './newsroom-address';
import { newsroomErrorOf } from './newsroom-errors';

/** How long the newsroom is waited for; a test shortens them. */
export interface NewsroomBounds {
  /** To open a connection (TCP, TLS and login). */
  connectTimeoutMs: number;
  /** For one statement, enforced by PostgreSQL itself (`statement_timeout`). */
  statementTimeoutMs: number;
}

export const defaultNewsroomBounds: NewsroomBounds = { connectTimeoutMs: 10_000, statementTimeoutMs: 30_000 };

/**
 * How `pg` connects to a newsroom: TLS `verify-full` (the system's trusted certificates, and
 * the host's name checked) for any host but this machine, where PostgreSQL runs without TLS.
 */
export function newsroomPoolConfig(access: NewsroomAccess, bounds: NewsroomBounds): pg.PoolConfig {
  const { address } = access;
  return {
    host: address.host,
    port: address.port,
    user: address.user,
    database: address.database,
    password: access.password,
    // pg checks the certificate against the host's name (or its IP address), as verify-full does.
    ssl: isThisMachine(address.host) ? false : { rejectUnauthorized: true },
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    statement_timeout: bounds.statementTimeoutMs,
    application_name: 'Verbatim',
    max: 4,
  };
}

/**
 * A pool of connections to one newsroom. Every failure comes out as a VerbatimError in words
 * (newsroom-errors.ts); SQL runs through `query` or `withClient`, always with parameters.
 */
export class NewsroomConnection {
  private readonly pool: pg.Pool;
  private closed: Promise<void> | undefined;

  constructor(
    readonly address: NewsroomAddress,
    password: string,
    bounds: NewsroomBounds = defaultNewsroomBounds,
    /** Where the messages send the journalist to fix the address or password: the CLI's variables or Settings. */
    private readonly naming: NewsroomNaming = environmentNaming,
  ) {
    this.pool = new pg.Pool(newsroomPoolConfig({ address, password }, bounds));
    // An idle connection whose server went away: the next query reports it; this one must not crash the process.
    this.pool.on('error', () => {});
  }

  async query<Row extends pg.QueryResultRow>(text: string, values: readonly unknown[] = []): Promise<Row[]> {
    try {
      return (await this.pool.query<Row>(text, [...values])).rows;
    } catch (error) {
      throw newsroomErrorOf(error, this.address, this.naming);
    }
  }

  /** One connection for work that needs it whole (a transaction, a session lock). */
  async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw newsroomErrorOf(error, this.address, this.naming);
    }
    let failure: unknown;
    // A server that goes away between two queries is an 'error' event on the held connection:
    // unheard, it would end the process; the next query on it fails and reports it.
    const heard = (error: Error) => (failure ??= error);
    client.on('error', heard);
    try {
      return await work(client);
    } catch (error) {
      failure = error;
      throw newsroomErrorOf(error, this.address, this.naming);
    } finally {
      client.off('error', heard);
      // A connection that failed mid-way is dropped rather than handed to the next caller.
      client.release(failure instanceof Error ? failure : undefined);
    }
  }

  close(): Promise<void> {
    return (this.closed ??= this.pool.end());
  }
}
