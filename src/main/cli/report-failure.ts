import { join } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import { damagedLibraryError } from '../core/library/database';
import { isLibraryDamage, markDamaged } from '../core/library/library-damage';
import { isLibraryWriteFailure } from '../core/scheduler/scheduler';
import type { CliIo } from './cli-io';
import { inCommandLineTerms } from './command-line-wording';
import { dataFolderOf } from './environment';
import { libraryWriteError } from './library-session';
import { UsageError } from './usage-error';

/**
 * A failed run said in a sentence on stderr, and its exit code: 2 for what the person can fix in
 * the command (with that command's usage for a usage mistake), 1 for what went wrong beyond it.
 * Anything else is a bug and is thrown on, stack and all.
 */
export function reportFailure(error: unknown, io: CliIo, usage: () => string): number {
  if (error instanceof UsageError) {
    io.err(`verbatim: ${error.message}\n\n${usage()}\n`);
    return 2;
  }
  if (isLibraryDamage(error)) {
    // Met in the middle of a command: the library is checked whole before it is used again.
    const library = join(dataFolderOf(io.env), 'library.sqlite');
    markDamaged(library);
    io.err(`verbatim: ${inCommandLineTerms(damagedLibraryError(library).message)}\n`);
    return 1;
  }
  if (isLibraryWriteFailure(error)) {
    io.err(`verbatim: ${libraryWriteError(dataFolderOf(io.env), (error as Error).message).message}\n`);
    return 1;
  }
  if (error instanceof VerbatimError) {
    io.err(`verbatim: ${inCommandLineTerms(error.message)}\n`);
    return badInput(error) ? 2 : 1;
  }
  throw error;
}

/**
 * Exit code 2 is for what the person running the command can fix in the command: a wrong or
 * missing value, a key not set, a file already there, an export folder that does not exist.
 */
function badInput(error: VerbatimError): boolean {
  if (['invalid_input', 'not_found', 'unauthorized', 'conflict'].includes(error.code)) return true;
  const cause = (error.details as { code?: unknown } | undefined)?.code;
  return error.code === 'storage' && (cause === 'ENOENT' || cause === 'ENOTDIR' || cause === 'EISDIR');
}
