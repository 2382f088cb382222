import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { quoteListLines } from '../highlight-lines';
import { UsageError } from '../usage-error';

/** `highlights`: every highlight in the library (the Quotes view), newest recording first. */
export const highlightsCommand = defineCommand({
  name: 'highlights',
  usage: ['[--label LABEL] [--json]'],
  summary:
    'Lists the highlights of the whole library with their transcript, speaker and time, newest recording first.',
  options: {
    label: { type: 'string', valueName: 'LABEL', description: 'only the highlights with this label' },
    json: { type: 'boolean', description: 'prints the highlights as JSON (times in milliseconds)' },
  },
  takesWords: false,
  async run({ values, positionals }, { io, openLibrary }) {
    if (positionals.length > 0) throw new UsageError('highlights takes no words; use --label to choose some');
    const { library } = openLibrary({ showProgress: false }).core;
    const label = values.label ? await library.highlightLabelNamed(values.label) : undefined;
    const { quotes, total } = await library.quotes({ labelId: label?.id, limit: 20_000 });
    printResult(io, values.json, quotes, () => quoteListLines(quotes, total));
    return 0;
  },
});
