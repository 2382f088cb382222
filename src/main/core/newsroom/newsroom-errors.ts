import { VerbatimError } from '../../../shared/errors';
import {
  environmentNaming,
  newsroomAddressText,
  type NewsroomAddress,
  type NewsroomNaming,
} from './newsroom-address';

/**
 * What went wrong talking to the newsroom, as a sentence a journalist can act on (issue #35,
 * point 9). Only the address is named, never the password; the driver's own message is not
 * passed on, as it may quote the server.
 */
export function newsroomErrorOf(
  error: unknown,
  address: NewsroomAddress,
  naming: NewsroomNaming = environmentNaming,
): VerbatimError {
  if (error instanceof VerbatimError) return error;
  const where = newsroomAddressText(address);
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  const details = { code: typeof code === 'string' ? code : undefined };
  switch (code) {
    case '28P01':
      return new VerbatimError(
        'unauthorized',
        `The newsroom at ${where} refused the password for ${address.user}, or has no such user: check ${naming.login}, or ask your newsroom's administrator.`,
        details,
      );
    case '28000':
      return new VerbatimError(
        'forbidden',
        `The newsroom at ${where} does not let ${address.user} log in from here: ask your newsroom's administrator to allow it.`,
        details,
      );
    case '42501':
      return new VerbatimError(
        'forbidden',
        `The newsroom at ${where} does not let ${address.user} do that: it is for the newsroom's administrator (\`newsroom migrate\` connects as the owner of the database).`,
        details,
      );
    case '3D000':
      return new VerbatimError(
        'not_found',
        `The newsroom server at ${address.host}:${address.port} has no database called ${address.database}: check the database name in ${naming.address}.`,
        details,
      );
    case '57014':
      return new VerbatimError(
        'timeout',
        `The newsroom at ${where} took too long to answer, and the request was stopped: try again, and tell your newsroom's administrator if it keeps happening.`,
        details,
      );
    case '57P01':
    case '57P02':
    case '57P03':
    case 'ECONNRESET':
    case 'EPIPE':
      return vanished(where, details);
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new VerbatimError(
        'network',
        `The newsroom at ${where} cannot be reached: nothing answers there. Check the address in ${naming.address} and your network, or ask your newsroom's administrator whether it is running.`,
        details,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new VerbatimError(
        'network',
        `The newsroom's host ${address.host} cannot be found: check the address in ${naming.address} and your network connection.`,
        details,
      );
    case 'ETIMEDOUT':
      return unanswered(where, naming, details);
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return new VerbatimError(
        'forbidden',
        `The newsroom at ${where} could not prove it is ${address.host} (its certificate does not match or is not trusted), so nothing was sent: check the address, and tell your newsroom's administrator.`,
        details,
      );
  }
  if (message === 'The server does not support SSL connections')
    return new VerbatimError(
      'forbidden',
      `The newsroom at ${where} does not offer an encrypted connection (TLS), so nothing was sent: ask your newsroom's administrator to turn TLS on.`,
      { code: 'no_tls' },
    );
  if (/timeout expired|connection timeout/i.test(message))
    return unanswered(where, naming, { code: 'connect_timeout' });
  if (/Connection terminated|not queryable/i.test(message)) return vanished(where, { code: 'terminated' });
  throw error;
}

function vanished(where: string, details: unknown): VerbatimError {
  return new VerbatimError(
    'network',
    `The connection to the newsroom at ${where} was lost: the server stopped or the network went away. Try again in a moment, or ask your newsroom's administrator whether it is running.`,
    details,
  );
}

function unanswered(where: string, naming: NewsroomNaming, details: unknown): VerbatimError {
  return new VerbatimError(
    'timeout',
    `The newsroom at ${where} did not answer in time: check your network connection and the address in ${naming.address}, then try again.`,
    details,
  );
}
