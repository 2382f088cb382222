import { VerbatimError, type ErrorCode } from '../../../shared/errors';

/**
 * A failure reported by (or on the way to) a remote service. It keeps the HTTP status and the
 * service's own words, and its message tells a journalist what happened and what to do.
 */
export class ServiceError extends VerbatimError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly status: number | undefined,
    readonly serviceMessage: string | undefined,
    readonly retryAfterMs?: number,
    /** Why the service could not be reached at all (ECONNREFUSED, ENOTFOUND…), for a network error. */
    readonly networkCause?: string,
  ) {
    super(code, message, { status, serviceMessage });
    this.name = 'ServiceError';
  }
}

/** The error body shapes the services use: {"error": "..."}, {"error": {"code", "message"}}, or text. */
/** Codes that mean the address itself cannot work as set: nothing listens there, or no such host. */
const unreachableCauses = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** A network failure that retrying the same address soon will not mend. */
export function isUnreachable(error: unknown): error is ServiceError {
  return (
    error instanceof ServiceError &&
    error.networkCause !== undefined &&
    unreachableCauses.has(error.networkCause)
  );
}

export function parseErrorBody(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    const body: unknown = JSON.parse(trimmed);
    if (typeof body === 'object' && body !== null) {
      const error = 'error' in body ? body.error : undefined;
      if (typeof error === 'string') return error;
      if (
        typeof error === 'object' &&
        error !== null &&
        'message' in error &&
        typeof error.message === 'string'
      ) {
        return error.message;
      }
      if ('message' in body && typeof body.message === 'string') return body.message;
    }
    return trimmed.slice(0, 500);
  } catch {
    // Plain text (or an HTML error page from a proxy): keep it short.
    return (
      trimmed
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 500) || undefined
    );
  }
}

export function codeForStatus(status: number): ErrorCode {
  if (status === 400 || status === 422 || status === 413) return 'invalid_input';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  return 'service';
}

export function describeStatus(service: string, status: number, serviceMessage: string | undefined): string {
  const said = serviceMessage ? ` It said: "${serviceMessage}"` : '';
  switch (codeForStatus(status)) {
    case 'unauthorized':
      return `The ${service} did not accept your API key. Check the key in Settings.${said}`;
    case 'forbidden':
      return `The ${service} refused this request for your key.${said}`;
    case 'not_found':
      return `The ${service} does not know this item; it may have been deleted.${said}`;
    case 'rate_limited':
      return `The ${service} is busy with too many requests; Verbatim will slow down and try again.${said}`;
    case 'invalid_input':
      return `The ${service} refused the request.${said}`;
    default:
      return `The ${service} had a problem (HTTP ${status}). Try again in a moment.${said}`;
  }
}
