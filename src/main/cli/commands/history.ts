import { formatRecordedAt } from '../../../shared/display-format';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { cliCommand, correctableTranscript } from '../correction-lines';

/** `history <id>`: the corrections made to a transcript, oldest first, with what undo would take back. */
export const historyCommand = defineCommand({
  name: 'history',
  usage: ['<id> [--json]'],
  summary: 'Lists the corrections made to a transcript, oldest first: when, what, and whether it was undone.',
  options: {
    json: {
      type: 'boolean',
      description: 'prints the corrections as JSON (times in milliseconds since 1970)',
    },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const id = onlyWord(positionals, 'history needs one transcript id');
    const { core } = openLibrary({ showProgress: false });
    const job = await correctableTranscript(core.library, id);
    const history = await core.library.history(id);
    printResult(io, values.json, history, () => {
      if (history.length === 0) return `"${job.title}" has no corrections: it reads as the service wrote it.`;
      const undone = history.filter((entry) => entry.undone).length;
      return [
        ...history.map(
          (entry) =>
            `${formatRecordedAt(entry.at)}  ${entry.summary}${entry.undone ? `  (undone; ${cliCommand(`redo ${id}`)} brings it back)` : ''}`,
        ),
        '',
        `${history.length - undone} in force${undone > 0 ? `, ${undone} undone` : ''}.`,
      ].join('\n');
    });
    return 0;
  },
});
