import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { changeLines, cliCommand, correctableTranscript, editReport } from '../correction-lines';

/** `redo <id>`: brings back the correction undo took back last. */
export const redoCommand = defineCommand({
  name: 'redo',
  usage: ['<id> [--json]'],
  summary: 'Brings back the correction that undo took back, until a new correction is made.',
  options: {
    json: { type: 'boolean', description: 'prints what was redone and the sentences it changed as JSON' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const id = onlyWord(positionals, 'redo needs one transcript id');
    const { core } = openLibrary({ showProgress: false });
    const job = await correctableTranscript(core.library, id);
    const result = await core.library.redo(id);
    // What was just redone is now the latest correction in force.
    const report = editReport(id, result, result.state.undo);
    printResult(io, values.json, report, () =>
      [
        `Redid in "${job.title}": ${report.summary ?? 'the correction'}`,
        ...changeLines(report.changes),
        `To take it back again: ${cliCommand(`undo ${id}`)}`,
      ].join('\n'),
    );
    return 0;
  },
});
