import { isAbsolute } from 'node:path';
import { VerbatimError } from '../../shared/errors';

/** A path from the page must be whole: a relative one would land wherever main happens to run. */
export function requireAbsolute(path: string): string {
  if (!isAbsolute(path))
    throw new VerbatimError(
      'invalid_input',
      `Give the full path, starting from the top of the disk, not "${path}".`,
    );
  return path;
}
