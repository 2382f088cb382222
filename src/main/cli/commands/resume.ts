import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { requireTranscriptionKey } from '../environment';
import { describeJob, publicJob } from '../job-lines';
import { waitingForOwner } from '../library-session';

/** `resume`: every unfinished job carried on from where it stopped (a crash, a full disk, a restart). */
export const resumeCommand = defineCommand({
  name: 'resume',
  usage: ['[--wait] [--json]'],
  summary: 'Carries every unfinished job on from where it stopped (after a crash, a full disk or a restart).',
  options: {
    wait: { type: 'boolean', description: 'stays until they have finished (exit 1 if one failed)' },
    json: { type: 'boolean', description: 'prints the jobs as JSON' },
  },
  takesWords: false,
  async run({ values }, { io, openLibrary }) {
    const session = openLibrary({ showProgress: !values.json });
    const { core } = session;
    requireTranscriptionKey(io.env);
    const unfinished = (await core.library.unfinishedJobs()).map((job) => job.id);
    const count = await core.scheduler.resumeAll();
    if (values.wait)
      await session.untilStorageFails(
        core.scheduler.settled(unfinished, () => io.err(waitingForOwner(core))),
      );
    else if (!core.ownership.owned) io.err(waitingForOwner(core, false));
    const jobs = await core.library.list();
    session.endProgress();
    printResult(
      io,
      values.json,
      jobs.map(publicJob),
      () => `${count} unfinished job(s) resumed.\n${jobs.map(describeJob).join('\n')}`,
    );
    return values.wait && jobs.some((job) => job.status === 'error') ? 1 : 0;
  },
});
