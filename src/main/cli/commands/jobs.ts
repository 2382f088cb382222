import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { describeJob, publicJob } from '../job-lines';

/** `jobs`: every transcript of the library and where it stands. */
export const jobsCommand = defineCommand({
  name: 'jobs',
  usage: ['[--json]'],
  summary: "Lists the library's transcripts: id, title and where each one stands.",
  options: {
    json: { type: 'boolean', description: 'prints the jobs as JSON' },
  },
  takesWords: false,
  async run({ values }, { io, openLibrary }) {
    const { core } = openLibrary({ showProgress: !values.json });
    const jobs = await core.library.list();
    printResult(io, values.json, jobs.map(publicJob), () =>
      jobs.length ? jobs.map(describeJob).join('\n') : 'No transcripts yet.',
    );
    return 0;
  },
});
