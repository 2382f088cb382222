import type { z } from 'zod';
import { contract, type Handlers, type MethodName } from '../../shared/ipc/contract';
import { failure, success, type Envelope } from '../../shared/ipc/envelope';
import { VerbatimError } from '../../shared/errors';
import type { Logger } from '../core/log/logger';

export type Dispatch = (method: string, input: unknown) => Promise<Envelope<unknown>>;

export interface DispatcherOptions {
  /**
   * Where unexpected failures go, with their stack, before they become the plain "internal"
   * envelope; expected ones (VerbatimError) are the caller's business and are not logged.
   */
  logger?: Logger;
}

function isMethodName(method: string): method is MethodName {
  return Object.hasOwn(contract, method);
}

/**
 * The single entry point every transport calls: validates the input against the contract,
 * runs the handler, and wraps the outcome in an envelope. Nothing thrown escapes.
 */
export function createDispatcher(handlers: Handlers, options: DispatcherOptions = {}): Dispatch {
  return async (method, input) => {
    if (!isMethodName(method)) {
      return failure(new VerbatimError('invalid_input', `Unknown action "${method}".`));
    }
    const spec = contract[method];
    const parsed = spec.input.safeParse(input);
    if (!parsed.success) {
      return failure(
        new VerbatimError('invalid_input', describeIssues(parsed.error), {
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.map(String),
            message: issue.message,
          })),
        }),
      );
    }
    try {
      const handler = handlers[method] as (input: unknown) => Promise<unknown>;
      const value = await handler(parsed.data);
      return success(spec.output.parse(value));
    } catch (error) {
      if (!(error instanceof VerbatimError)) options.logger?.error(`${method} failed unexpectedly`, error);
      return failure(error);
    }
  };
}

function describeIssues(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'The request was not valid.';
  const where = first.path.length > 0 ? ` (${first.path.map(String).join('.')})` : '';
  return `The request was not valid${where}: ${first.message}`;
}
