import { defineCommand } from '../command';
import { printAllJobs } from '../job-lines';

/** `jobs`: every transcript of the library and where it stands, all of them however many. */
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
    await printAllJobs(io, core.library, { json: values.json, empty: 'No transcripts yet.' });
    return 0;
  },
});
