import { VerbatimError } from '../../../shared/errors';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { changeLines, cliCommand, correctableTranscript, editReport } from '../correction-lines';
import { UsageError } from '../usage-error';

/** `revert <id> [--paragraph N]`: back to the service's words, as one edit that undo takes back. */
export const revertCommand = defineCommand({
  name: 'revert',
  usage: ['<id> [--paragraph N] [--json]'],
  summary:
    "Brings a transcript, or one paragraph of it, back to the service's words, as a correction that undo takes back.",
  options: {
    paragraph: {
      type: 'string',
      valueName: 'N',
      description: 'only paragraph N, counting from 1 (the whole transcript unless set)',
    },
    json: { type: 'boolean', description: 'prints the edit and the sentences it changed as JSON' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const id = onlyWord(positionals, 'revert needs one transcript id');
    const paragraph = values.paragraph === undefined ? undefined : paragraphNumber(values.paragraph);
    const { core } = openLibrary({ showProgress: false });
    const job = await correctableTranscript(core.library, id);
    if (paragraph !== undefined) {
      const paragraphs = (await core.library.paragraphs(id)).length;
      if (paragraph > paragraphs)
        throw new VerbatimError(
          'invalid_input',
          `"${job.title}" has ${paragraphs} paragraph${paragraphs === 1 ? '' : 's'}; there is no paragraph ${paragraph}.`,
        );
    }
    const result = await core.library.edit(
      id,
      paragraph === undefined ? { kind: 'revert' } : { kind: 'revert', paragraph: paragraph - 1 },
    );
    const what = paragraph === undefined ? `"${job.title}"` : `Paragraph ${paragraph} of "${job.title}"`;
    const report = editReport(id, result, result.editId === null ? null : result.state.undo);
    printResult(io, values.json, report, () =>
      result.editId === null
        ? `${what} already reads as the service wrote it; nothing was changed.`
        : [
            `${report.summary ?? 'Reverted'} in "${job.title}":`,
            ...changeLines(report.changes),
            `To take it back: ${cliCommand(`undo ${id}`)}`,
          ].join('\n'),
    );
    return 0;
  },
});

/** "--paragraph 2" as the number a person counts, from 1. */
function paragraphNumber(text: string): number {
  const number = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(number) || number < 1)
    throw new UsageError(`--paragraph must be a paragraph's number, counting from 1, not "${text}"`);
  return number;
}
