import type { EditIntent, EditResult } from '../../../shared/corrections/corrections';
import { findPattern } from '../../../shared/corrections/edit-plan';
import { VerbatimError } from '../../../shared/errors';
import type { Segment } from '../../../shared/library';
import type { Library } from '../../core/library/library';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { onlyWord } from '../command-words';
import { changeLines, cliCommand, correctableTranscript, editReport } from '../correction-lines';
import { UsageError } from '../usage-error';

/** `edit <id> --replace "FROM=TO"`: find and replace in a transcript, as an undoable edit. */
export const editCommand = defineCommand({
  name: 'edit',
  usage: ['<id> --replace "FROM=TO" [--all] [--whole-word] [--match-case] [--json]'],
  summary:
    'Corrects a transcript by find and replace: the first occurrence, or every one with --all; "undo" takes it back.',
  options: {
    replace: {
      type: 'string',
      valueName: '"FROM=TO"',
      description: 'the words to find and what to write instead, split at the first "="',
    },
    all: {
      type: 'boolean',
      description: 'replaces every occurrence, as one edit (the first one only unless set)',
    },
    'whole-word': {
      type: 'boolean',
      description: 'finds FROM only as a whole word, not inside a longer one',
    },
    'match-case': { type: 'boolean', description: 'finds FROM only with the same capitals' },
    json: { type: 'boolean', description: 'prints the edit and the sentences it changed as JSON' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const id = onlyWord(positionals, 'edit needs one transcript id');
    if (values.replace === undefined)
      throw new UsageError('edit needs --replace "FROM=TO", such as --replace "Brenan=Brennan"');
    const { find, replacement } = parseReplacement(values.replace);
    const { core } = openLibrary({ showProgress: false });
    const job = await correctableTranscript(core.library, id);
    const options = { wholeWord: values['whole-word'], matchCase: values['match-case'] };
    const intent = { kind: 'replace', find, replacement, ...options } as const;
    const { result, matched } = values.all
      ? await replaceEvery(core.library, id, intent)
      : await replaceFirst(core.library, id, intent);
    if (result.editId === null) {
      const how = [
        options.wholeWord ? 'as a whole word' : '',
        options.matchCase ? 'with the same capitals' : '',
      ]
        .filter(Boolean)
        .join(' and ');
      throw new VerbatimError(
        'invalid_input',
        matched
          ? `Writing “${replacement}” for “${find}” changes nothing in "${job.title}"; nothing was changed.`
          : `“${find}” is not in "${job.title}"${how ? ` ${how}` : ''}; nothing was changed.`,
      );
    }
    const report = editReport(id, result, result.state.undo);
    printResult(io, values.json, report, () =>
      [
        `${report.summary ?? 'Corrected'} in "${job.title}":`,
        ...changeLines(report.changes),
        `To take it back: ${cliCommand(`undo ${id}`)}`,
      ].join('\n'),
    );
    return 0;
  },
});

/** "FROM=TO" split at the first "=": FROM may not be empty, TO may (to delete FROM). */
export function parseReplacement(text: string): { find: string; replacement: string } {
  const split = text.indexOf('=');
  if (split < 0)
    throw new UsageError(
      `--replace needs FROM=TO with an "=" between them, such as --replace "Brenan=Brennan", not "${text}"`,
    );
  const find = text.slice(0, split);
  if (!find.trim()) throw new UsageError('--replace needs the words to find before the "="');
  return { find, replacement: text.slice(split + 1) };
}

/**
 * Where the first occurrence of `find` is: its sentence's position, in the words as the reader
 * shows them (what find and replace searches), or undefined when nothing matches.
 */
export function firstOccurrence(
  sentences: readonly Segment[],
  find: string,
  options: { wholeWord: boolean; matchCase: boolean },
): { position: number; occurrence: number } | undefined {
  const pattern = findPattern(find, options);
  for (const sentence of sentences) {
    pattern.lastIndex = 0;
    if (pattern.test(sentence.words.map((word) => word.text).join(' ')))
      return { position: sentence.position, occurrence: 0 };
  }
  return undefined;
}

type ReplaceIntent = Omit<Extract<EditIntent, { kind: 'replace' }>, 'at'>;

/** Every occurrence, planned inside the edit's own transaction from the words as they are then. */
async function replaceEvery(
  library: Library,
  id: string,
  intent: ReplaceIntent,
): Promise<{ result: EditResult; matched: boolean }> {
  const result = await library.edit(id, intent);
  const matched =
    result.editId !== null ||
    (await library.sentences(id)).some((sentence) => firstOccurrence([sentence], intent.find, intent));
  return { result, matched };
}

/** Tries when another process changed the transcript between reading it and editing it. */
const attemptsAfterConflict = 5;

/**
 * The first occurrence only. It is found in the words as read, so the edit carries the revision
 * they were read at: if another window or command changed the transcript in between, the core
 * refuses it and the first occurrence is looked for again in the new words.
 */
async function replaceFirst(
  library: Library,
  id: string,
  intent: ReplaceIntent,
): Promise<{ result: EditResult; matched: boolean }> {
  for (let attempt = 1; ; attempt++) {
    // The revision first: a change made after it makes the edit below a conflict, never a wrong one.
    const { revision } = await library.correctionState(id);
    const at = firstOccurrence(await library.sentences(id), intent.find, intent);
    if (!at) return { result: await unchanged(library, id), matched: false };
    try {
      return {
        result: await library.edit(id, { ...intent, at }, { expectedRevision: revision }),
        matched: true,
      };
    } catch (error) {
      const changedMeanwhile = error instanceof VerbatimError && error.code === 'conflict';
      if (!changedMeanwhile || attempt === attemptsAfterConflict) throw error;
    }
  }
}

/** The answer to an edit that changed nothing. */
async function unchanged(library: Library, id: string): Promise<EditResult> {
  return { editId: null, steps: [], replaced: 0, state: await library.correctionState(id) };
}
