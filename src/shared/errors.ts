/**
 * Errors that cross the IPC boundary. Every failure the renderer sees carries one of
 * these codes and a message written for a journalist, not a developer.
 */
export const errorCodes = [
  'invalid_input',
  'not_found',
  'unauthorized',
  'forbidden',
  'rate_limited',
  'network',
  'service',
  'timeout',
  'cancelled',
  'conflict',
  'storage',
  'internal',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

export class VerbatimError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'VerbatimError';
    this.code = code;
    this.details = details;
  }

  toPayload(): ErrorPayload {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromPayload(payload: ErrorPayload): VerbatimError {
    return new VerbatimError(payload.code, payload.message, payload.details);
  }
}

export function isVerbatimError(value: unknown): value is VerbatimError {
  return value instanceof VerbatimError;
}

/**
 * A message (an error's, an event's) put inside a longer sentence that has its own full stop
 * after it: without its closing one, so the reporter never reads "was lost.. Nothing". An
 * ellipsis stays.
 */
export function withoutFullStop(message: string): string {
  return message.replace(/(?<!\.)\.\s*$/, '');
}
