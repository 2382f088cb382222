import { VerbatimError } from '../../../shared/errors';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { requireTranscriptionKey } from '../environment';
import { UsageError } from '../usage-error';
import { transcriptOfArgument } from '../transcript-argument';
import type { Library } from '../../core/library/library';

/**
 * `delete <id>`: a transcript out of the library, and with --remote off the service too. Its
 * quotes in stories stay there as text unless `--quotes-in-stories remove` (issue #20): a story
 * is never emptied silently, and the output says which stories kept or lost what.
 */
export const deleteCommand = defineCommand({
  name: 'delete',
  usage: ['<id> [--remote] [--quotes-in-stories keep|remove] [--json]'],
  summary: 'Deletes a transcript from the library, and with --remote from the service as well.',
  options: {
    remote: { type: 'boolean', description: "deletes the service's copy too (needs VERBATIM_API_KEY)" },
    'quotes-in-stories': {
      type: 'string',
      valueName: 'keep|remove',
      description:
        "what becomes of the transcript's quotes in stories: kept there as text (the default) or removed",
    },
    json: { type: 'boolean', description: 'prints what was deleted as JSON' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const { core } = openLibrary({ showProgress: !values.json });
    const id = onlyWord(positionals, 'delete needs a transcript id');
    const choice = values['quotes-in-stories'] ?? 'keep';
    if (choice !== 'keep' && choice !== 'remove')
      throw new UsageError(`--quotes-in-stories is keep or remove, not "${choice}"`);
    const job = await transcriptOfArgument(core.library, id);
    if (values.remote && !['completed', 'error', 'cancelled'].includes(job.status)) {
      // Still being made: the service refuses to delete a transcript it is working on, and one
      // whose creation is under way here would be made after this deletion, billed and lost.
      requireTranscriptionKey(io.env);
      await core.library.requestRemoteDeletion(id);
      if (core.ownership.owned) {
        io.err(
          `verbatim: "${job.title}" is still being made on the service, which deletes a transcript only once it has finished; waiting for that, then deleting it there and here…\n`,
        );
        await untilDeleted(core.library, id, job.error);
        printResult(
          io,
          values.json,
          { deleted: id, remote: true },
          () => `Deleted "${job.title}" here and on the service.`,
        );
      } else {
        const owner = core.ownership.ownerDescription() ?? "the Verbatim that sends this folder's jobs";
        printResult(
          io,
          values.json,
          { deleted: id, remote: 'once-finished' },
          () =>
            `"${job.title}" is still being made on the service, which deletes a transcript only once it has finished. ${owner} will then delete it there and here; nothing of it will be kept.`,
        );
      }
      return 0;
    }
    const quoted = await core.library.storyQuotesOf(id);
    if (values.remote && job.remoteId) {
      requireTranscriptionKey(io.env);
      await core.clientFor(job.region).delete(job.remoteId);
    }
    await core.deleteTranscript(job, { quotesInStories: choice === 'keep' ? 'keep-as-text' : 'remove' });
    const stories = quoted.stories.map((name) => `"${name}"`).join(', ');
    const quotes = `${quoted.quotes} quote${quoted.quotes === 1 ? '' : 's'}`;
    printResult(
      io,
      values.json,
      {
        deleted: id,
        remote: values.remote && job.remoteId !== null,
        quotesInStories: { quotes: quoted.quotes, stories: quoted.stories, kept: choice === 'keep' },
      },
      () =>
        [
          `Deleted "${job.title}"${values.remote && job.remoteId ? ' here and on the service' : ''}.`,
          ...(quoted.quotes === 0
            ? []
            : choice === 'keep'
              ? [
                  `Its ${quotes} in ${stories} ${quoted.quotes === 1 ? 'stays' : 'stay'} there as text (--quotes-in-stories remove takes ${quoted.quotes === 1 ? 'it' : 'them'} out).`,
                ]
              : [`Its ${quotes} in ${stories} ${quoted.quotes === 1 ? 'was' : 'were'} removed.`]),
        ].join('\n'),
    );
    return 0;
  },
});

/**
 * Until this process's scheduler has deleted the job (on the service, then here); a new reason
 * on the job (the service unreachable, the deletion refused) ends the wait with that reason.
 */
async function untilDeleted(library: Library, id: string, earlierError: string | null): Promise<void> {
  for (;;) {
    const job = await library.get(id);
    if (!job) return;
    if (job.error !== null && job.error !== earlierError) throw new VerbatimError('service', job.error);
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
}
