import { VerbatimError } from '../../../shared/errors';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { describeJob, publicJob, speakerPrefix, timestamp } from '../job-lines';

/** `show <id>`: one transcript, a sentence a line with its time and speaker. */
export const showCommand = defineCommand({
  name: 'show',
  usage: ['<id> [--json]'],
  summary: 'Prints a transcript, a sentence a line with its time and its speaker.',
  options: {
    json: { type: 'boolean', description: 'prints the job and its sentences as JSON' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const { core } = openLibrary({ showProgress: !values.json });
    const id = onlyWord(positionals, 'show needs a transcript id');
    const job = await core.library.get(id);
    if (!job) throw new VerbatimError('not_found', `No transcript with id ${id}.`);
    const sentences = await core.library.sentences(id);
    const names = new Map(job.speakers.map((speaker) => [speaker.label, speaker.name ?? speaker.label]));
    printResult(io, values.json, { ...publicJob(job), sentences }, () =>
      [
        describeJob(job),
        '',
        ...sentences.map(
          (s) =>
            `[${timestamp(s.startMs)}] ${speakerPrefix(s.speaker ? (names.get(s.speaker) ?? s.speaker) : null)}${s.text}`,
        ),
      ].join('\n'),
    );
    return 0;
  },
});
