import type { Quote } from '../../../shared/highlights';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { quoteListLines } from '../highlight-lines';
import { UsageError } from '../usage-error';

const pageSize = 1000;

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
    // Every highlight, a page at a time: a page's total is capped (as the Quotes view counts).
    const quotes: Quote[] = [];
    for (;;) {
      const page = await library.quotes({ labelId: label?.id, limit: pageSize, offset: quotes.length });
      quotes.push(...page.quotes);
      if (page.quotes.length < pageSize) break;
    }
    printResult(io, values.json, quotes, () => quoteListLines(quotes));
    return 0;
  },
});
