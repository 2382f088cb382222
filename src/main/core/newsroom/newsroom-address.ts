import { z } from 'zod';
import { VerbatimError } from '../../../shared/errors';

/**
 * A newsroom is an address `postgres://user@host:port/database` and a password kept apart from
 * it (issue #35): the address may be shown, logged and printed; the password never is.
 */
export interface NewsroomAddress {
  user: string;
  host: string;
  port: number;
  database: string;
}

/** What it takes to connect: where, and the password, which never leaves this object but for `pg`. */
export interface NewsroomAccess {
  address: NewsroomAddress;
  password: string;
}

/**
 * Where the journalist names the newsroom, as a message that asks them to fix it points there:
 * the CLI's environment variables, or the app's Settings.
 */
export interface NewsroomNaming {
  /** The address: a message says "check the database name in <address>". */
  address: string;
  /** The user and password: "check <login>". */
  login: string;
  /** Where a password found in the address belongs: "remove it from the address and <password> instead". */
  password: string;
}

export const environmentNaming: NewsroomNaming = {
  address: 'VERBATIM_NEWSROOM_URL',
  login: 'the user in VERBATIM_NEWSROOM_URL and VERBATIM_NEWSROOM_PASSWORD',
  password: 'set VERBATIM_NEWSROOM_PASSWORD',
};

export const settingsNaming: NewsroomNaming = {
  address: 'Settings',
  login: 'the user and the password in Settings',
  password: 'enter it in the password field',
};

/** The hosts that are this machine: a connection there may go unencrypted; anywhere else it is `verify-full`. */
const thisMachine = new Set(['127.0.0.1', '::1', 'localhost']);

export function isThisMachine(host: string): boolean {
  return thisMachine.has(host.toLowerCase());
}

/** PostgreSQL's names (a role, a database) are at most 63 bytes. */
const postgresName = z
  .string()
  .min(1)
  .refine((name) => Buffer.byteLength(name) <= 63, 'is longer than PostgreSQL allows (63 bytes)');

const addressSchema = z.object({
  user: postgresName,
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  database: postgresName,
});

const example = 'postgres://reporter@db.example.org:5432/verbatim';

/**
 * The newsroom address in `text`, checked. The text is never repeated in a message when it
 * holds a password, so a mistake cannot print it.
 */
export function parseNewsroomAddress(
  text: string,
  variable = 'The newsroom address',
  naming: NewsroomNaming = environmentNaming,
): NewsroomAddress {
  const wrong = (why: string) =>
    new VerbatimError('invalid_input', `${variable} ${why}: write it as ${example}.`);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw wrong('is not an address');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw wrong('must start with postgres://');
  if (url.password !== '')
    throw new VerbatimError(
      'invalid_input',
      `${variable} must not hold the password: remove it from the address and ${naming.password} instead.`,
    );
  if (url.search !== '' || url.hash !== '') throw wrong('takes no options after the database name');
  const parsed = addressSchema.safeParse({
    user: decodeURIComponent(url.username),
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? 5432 : Number(url.port),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')),
  });
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'address');
    throw wrong(
      field === 'user' || field === 'database'
        ? `needs a ${field} name of at most 63 bytes`
        : `needs a valid ${field}`,
    );
  }
  return parsed.data;
}

/** The address as a person reads it (and as it is written in VERBATIM_NEWSROOM_URL), without a password. */
export function newsroomAddressText(address: NewsroomAddress): string {
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `postgres://${encodeURIComponent(address.user)}@${host}:${address.port}/${encodeURIComponent(address.database)}`;
}
