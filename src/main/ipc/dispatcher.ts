import type { z } from 'zod';
import { contract, type Handlers, type MethodName } from '../../shared/ipc/contract';
import { failure, success, type Envelope } from '../../shared/ipc/envelope';
import { VerbatimError } from '../../shared/errors';
import type { Logger } from '../core/log/logger';
import { repairCommandLine } from '../core/library/database';
import { isLibraryDamage } from '../core/library/library-damage';

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
      if (isLibraryDamage(error)) {
        options.logger?.error(`${method} met a damaged library`, error);
        return failure(libraryDamaged);
      }
      if (!(error instanceof VerbatimError)) options.logger?.error(`${method} failed unexpectedly`, error);
      return failure(error);
    }
  };
}

/** SQLite found the library file damaged in the middle of an action: what the journalist does now. */
const libraryDamaged = new VerbatimError(
  'storage',
  `The library file is damaged, so this could not be done. Quit Verbatim, then run "${repairCommandLine}" to rebuild what can be rebuilt, or restore the library from a backup in the backups folder of the data folder.`,
  { cause: 'SQLITE_CORRUPT' },
);

function describeIssues(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'The request was not valid.';
  const where = first.path.length > 0 ? ` (${first.path.map(String).join('.')})` : '';
  return `The request was not valid${where}: ${first.message}`;
}
