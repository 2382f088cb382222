import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { requireTranscriptionKey } from '../environment';
import { describeJob, publicJob } from '../job-lines';
import { followJobs } from '../library-session';
import { onlyWord } from '../command-words';
import { UsageError } from '../usage-error';
import { transcriptOfArgument } from '../transcript-argument';

/** `retry <id>`: a failed or cancelled job started again. */
export const retryCommand = defineCommand({
  name: 'retry',
  usage: ['<id> [--wait] [--json]'],
  summary: 'Starts a failed job again; one the service had already made is fetched, never created twice.',
  options: {
    wait: { type: 'boolean', description: 'stays until it has finished (exit 1 if it failed)' },
    json: { type: 'boolean', description: 'prints the job as JSON' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const session = openLibrary({ showProgress: !values.json });
    const { core } = session;
    const id = onlyWord(positionals, 'retry needs a transcript id');
    requireTranscriptionKey(io.env);
    const job = await transcriptOfArgument(core.library, id);
    if (job.status !== 'error' && job.status !== 'cancelled') {
      throw new UsageError(
        `"${job.title}" has not failed (it is ${job.status}); there is nothing to retry. "resume" picks up unfinished jobs.`,
      );
    }
    // A job the service already made is fetched again, never created twice.
    await core.scheduler.retry(id);
    await followJobs(session, io, [id], { wait: values.wait });
    const retried = (await core.library.get(id))!;
    session.endProgress();
    printResult(io, values.json, publicJob(retried), () => describeJob(retried));
    return retried.status === 'error' ? 1 : 0;
  },
});
