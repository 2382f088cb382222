import { errorCodes, VerbatimError, type ErrorPayload } from '../errors';

/** What every IPC call returns across the process boundary, whatever the transport. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ErrorPayload };

export function success<T>(value: T): Envelope<T> {
  return { ok: true, value };
}

export function failure(error: unknown): Envelope<never> {
  if (error instanceof VerbatimError) return { ok: false, error: error.toPayload() };
  // Unknown failures keep their message for the log but never leak a stack to the UI.
  const message = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    error: { code: 'internal', message: `Something went wrong inside Verbatim: ${message}` },
  };
}

/** Turns an envelope back into a value or a thrown typed error on the caller's side. */
export function unwrap<T>(envelope: Envelope<T>): T {
  if (isEnvelope(envelope)) {
    if (envelope.ok) return envelope.value;
    const code = (errorCodes as readonly string[]).includes(envelope.error.code)
      ? envelope.error.code
      : 'internal';
    throw new VerbatimError(code, envelope.error.message, envelope.error.details);
  }
  throw new VerbatimError('internal', 'Verbatim received a reply it does not understand.');
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  if (value.ok === true) return 'value' in value;
  return (
    value.ok === false &&
    'error' in value &&
    typeof value.error === 'object' &&
    value.error !== null &&
    'message' in value.error &&
    typeof value.error.message === 'string'
  );
}
