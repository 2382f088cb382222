import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { changeLines, cliCommand, correctableTranscript, editReport } from '../correction-lines';

/** `undo <id>`: takes back the latest correction in force, also one made in the app. */
export const undoCommand = defineCommand({
  name: 'undo',
  usage: ['<id> [--json]'],
  summary: 'Takes back the latest correction of a transcript, whether made here or in the app.',
  options: {
    json: { type: 'boolean', description: 'prints what was undone and the sentences it changed as JSON' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const id = onlyWord(positionals, 'undo needs one transcript id');
    const { core } = openLibrary({ showProgress: false });
    const job = await correctableTranscript(core.library, id);
    const result = await core.library.undo(id);
    // What was just undone is now the first thing redo would bring back.
    const report = editReport(id, result, result.state.redo);
    printResult(io, values.json, report, () =>
      [
        `Undid in "${job.title}": ${report.summary ?? 'the latest correction'}`,
        ...changeLines(report.changes),
        `To bring it back: ${cliCommand(`redo ${id}`)}`,
      ].join('\n'),
    );
    return 0;
  },
});
