import { VerbatimError } from '../../shared/errors';
import type { JobRecord, Library } from '../core/library/library';

/**
 * The transcript an id typed on the command line names. Every command says an id that names
 * none the same way: the library's own "no longer in your library" is for a transcript deleted
 * while a window showed it, and would be wrong for an id that was never there.
 */
export async function transcriptOfArgument(library: Library, id: string): Promise<JobRecord> {
  const job = await library.get(id);
  if (!job) throw new VerbatimError('not_found', `No transcript with id ${id}.`);
  return job;
}
