import { defineCommand } from '../command';
import { requireTranscriptionKey } from '../environment';
import { printAllJobs } from '../job-lines';
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
    session.endProgress();
    if (!values.json) io.out(`${count} unfinished job(s) resumed.`);
    await printAllJobs(io, core.library, { json: values.json });
    return values.wait && (await core.library.list({ status: 'error', limit: 1 })).length > 0 ? 1 : 0;
  },
});
