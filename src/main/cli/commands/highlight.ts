import { VerbatimError } from '../../../shared/errors';
import { rangeOfTypedTimes } from '../../../shared/time-range-words';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { highlightReport } from '../highlight-lines';
import { parseTypedTime } from '../time-argument';
import { UsageError } from '../usage-error';
import { transcriptOfArgument } from '../transcript-argument';

/** `highlight <id> --from TIME --to TIME`: marks the words spoken in that span of a transcript. */
export const highlightCommand = defineCommand({
  name: 'highlight',
  usage: ['<id> --from TIME --to TIME [--label LABEL] [--note TEXT] [--json]'],
  summary:
    'Highlights the words spoken between two times of a transcript (hh:mm:ss, mm:ss or seconds): each word mostly said in between, whole. A time as show prints it stands for the sentence printed there.',
  options: {
    from: {
      type: 'string',
      valueName: 'TIME',
      description:
        'where the passage starts: hh:mm:ss, mm:ss or seconds; a sentence starting within that second (as show prints it) starts it',
    },
    to: {
      type: 'string',
      valueName: 'TIME',
      description:
        'where it ends; the time show prints for the next sentence ends it just before that sentence',
    },
    label: {
      type: 'string',
      valueName: 'LABEL',
      description: 'the label, such as Quote (the default), Check or Background',
    },
    note: { type: 'string', valueName: 'TEXT', description: 'a note kept with the highlight' },
    json: { type: 'boolean', description: 'prints the highlight as JSON (times in milliseconds)' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const id = onlyWord(positionals, 'highlight needs one transcript id');
    const from = parseTypedTime(values.from, '--from');
    const to = parseTypedTime(values.to, '--to');
    if (to.ms <= from.ms) throw new UsageError('--to must come after --from');
    const { core } = openLibrary({ showProgress: false });
    const { library } = core;
    const job = await transcriptOfArgument(library, id);
    const { startMs, endMs } = rangeOfTypedTimes(await library.sentences(id), from, to);
    // "--from 37 --to 37.5" when the sentence printed at 00:00:37 starts at 37.744 s.
    if (endMs <= startMs)
      throw new VerbatimError(
        'invalid_input',
        `Nothing is said between ${values.from} and ${values.to} in this transcript, so there is nothing to highlight. Choose a passage with words in it.`,
      );
    const label = values.label
      ? await library.highlightLabelNamed(values.label)
      : (await library.highlightLabels())[0];
    const highlight = await library.createHighlight({
      transcriptId: id,
      startMs,
      endMs,
      labelId: label?.id,
      note: values.note ?? '',
    });
    printResult(io, values.json, highlight, () =>
      highlightReport(highlight, label ?? { id: highlight.labelId, name: 'Quote', color: 'yellow' }, job),
    );
    return 0;
  },
});
