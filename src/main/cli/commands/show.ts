import { paragraphOfSentence } from '../../../shared/corrections/edit-plan';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { describeJob, publicJob, speakerPrefix, timestamp } from '../job-lines';
import { transcriptOfArgument } from '../transcript-argument';

/** `show <id>`: one transcript, a sentence a line with its time and speaker, under its paragraph's number. */
export const showCommand = defineCommand({
  name: 'show',
  usage: ['<id> [--json]'],
  summary:
    'Prints a transcript, a sentence a line with its time and its speaker, under the number of its paragraph (what revert --paragraph takes).',
  options: {
    json: {
      type: 'boolean',
      description: 'prints the job and its sentences as JSON, each with its paragraph number',
    },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const { core } = openLibrary({ showProgress: !values.json });
    const id = onlyWord(positionals, 'show needs a transcript id');
    const job = await transcriptOfArgument(core.library, id);
    const paragraphs = await core.library.paragraphs(id, { words: false });
    // Counted from 1, as revert --paragraph counts them; null before the first paragraph.
    const sentences = (await core.library.sentences(id)).map((sentence) => {
      const index = paragraphOfSentence(paragraphs, sentence);
      return { ...sentence, paragraph: index === undefined ? null : index + 1 };
    });
    const names = new Map(job.speakers.map((speaker) => [speaker.label, speaker.name ?? speaker.label]));
    const lines: string[] = [];
    for (const [at, s] of sentences.entries()) {
      if (s.paragraph !== null && s.paragraph !== sentences[at - 1]?.paragraph)
        lines.push(...(lines.length > 0 ? [''] : []), `Paragraph ${s.paragraph}`);
      lines.push(
        `[${timestamp(s.startMs)}] ${speakerPrefix(s.speaker ? (names.get(s.speaker) ?? s.speaker) : null)}${s.text}`,
      );
    }
    printResult(io, values.json, { ...publicJob(job), sentences }, () =>
      [describeJob(job), '', ...lines].join('\n'),
    );
    return 0;
  },
});
