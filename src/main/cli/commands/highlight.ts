import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { highlightReport } from '../highlight-lines';
import { parseTimeArgument } from '../time-argument';
import { UsageError } from '../usage-error';

/** `highlight <id> --from TIME --to TIME`: marks the words spoken in that span of a transcript. */
export const highlightCommand = defineCommand({
  name: 'highlight',
  usage: ['<id> --from TIME --to TIME [--label LABEL] [--note TEXT] [--json]'],
  summary:
    'Highlights the words spoken between two times of a transcript (hh:mm:ss, mm:ss or seconds), snapped to whole words.',
  options: {
    from: {
      type: 'string',
      valueName: 'TIME',
      description: 'where the passage starts: hh:mm:ss, mm:ss or seconds',
    },
    to: {
      type: 'string',
      valueName: 'TIME',
      description: 'where it ends; every word spoken in between is taken whole',
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
    const startMs = parseTimeArgument(values.from, '--from');
    const endMs = parseTimeArgument(values.to, '--to');
    if (endMs <= startMs) throw new UsageError('--to must come after --from');
    const { core } = openLibrary({ showProgress: false });
    const { library } = core;
    const job = await library.requireJob(id);
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
      highlightReport(
        highlight,
        label ?? { id: highlight.labelId, name: 'Quote', color: 'yellow' },
        job.title,
      ),
    );
    return 0;
  },
});
