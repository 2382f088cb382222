import { VerbatimError } from '../../../shared/errors';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { requireTranscriptionKey } from '../environment';

/** `delete <id>`: a transcript out of the library, and with --remote off the service too. */
export const deleteCommand = defineCommand({
  name: 'delete',
  usage: ['<id> [--remote] [--json]'],
  summary: 'Deletes a transcript from the library, and with --remote from the service as well.',
  options: {
    remote: { type: 'boolean', description: "deletes the service's copy too (needs VERBATIM_API_KEY)" },
    json: { type: 'boolean', description: 'prints what was deleted as JSON' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const { core } = openLibrary({ showProgress: !values.json });
    const id = onlyWord(positionals, 'delete needs a transcript id');
    const job = await core.library.get(id);
    if (!job) throw new VerbatimError('not_found', `No transcript with id ${id}.`);
    if (values.remote && job.remoteId) {
      requireTranscriptionKey(io.env);
      await core.clientFor(job.region).delete(job.remoteId);
    }
    await core.library.delete(id);
    printResult(
      io,
      values.json,
      { deleted: id, remote: values.remote && job.remoteId !== null },
      () => `Deleted "${job.title}"${values.remote && job.remoteId ? ' here and on the service' : ''}.`,
    );
    return 0;
  },
});
