import type { EditResult, EditStep } from '../../shared/corrections/corrections';
import { VerbatimError } from '../../shared/errors';
import type { Library } from '../core/library/library';
import { timestamp } from './job-lines';
import { transcriptOfArgument } from './transcript-argument';

/**
 * How a correction made from the command line reads: the sentences it changed, before and
 * after, and the command that takes it back. Shared by edit, revert, undo and redo.
 */

/** One changed stretch of the transcript: what it read before and what it reads now. */
export interface ChangedSentences {
  /** 0-based position of the first sentence, as the transcript was before the change. */
  position: number;
  before: { startMs: number; text: string }[];
  after: { startMs: number; text: string }[];
}

/** The changes of the steps, in order, as before/after texts (for --json and the lines below). */
export function changedSentences(steps: readonly EditStep[]): ChangedSentences[] {
  return steps.flatMap((step) =>
    step.map((change) => ({
      position: change.position,
      before: change.removed.map((s) => ({ startMs: s.startMs, text: s.text })),
      after: change.inserted.map((s) => ({ startMs: s.startMs, text: s.text })),
    })),
  );
}

/** "- [00:00:03] old" and "+ [00:00:03] new" lines, a pair of blocks for each change. */
export function changeLines(changes: readonly ChangedSentences[]): string[] {
  return changes.flatMap((change) => [
    ...change.before.map((s) => `  - [${timestamp(s.startMs)}] ${s.text}`),
    ...change.after.map((s) => `  + [${timestamp(s.startMs)}] ${s.text}`),
  ]);
}

/** The command a person (or a script) runs next, as the other messages name commands. */
export function cliCommand(words: string): string {
  return `npm run cli -- ${words}`;
}

/** What --json prints for an edit, an undo or a redo. */
export function editReport(id: string, result: EditResult, summary: string | null) {
  return {
    id,
    editId: result.editId,
    summary,
    replaced: result.replaced,
    changes: changedSentences(result.steps),
    state: result.state,
  };
}

/**
 * The transcript, finished: corrections are made to a transcript's words, and one still being
 * made has none yet. A missing one is `not_found`, as in every command.
 */
export async function correctableTranscript(library: Library, id: string) {
  const job = await transcriptOfArgument(library, id);
  if (job.status !== 'completed')
    throw new VerbatimError(
      'invalid_input',
      `"${job.title}" is not finished yet (it is ${job.status}), so it has no words to correct.`,
    );
  return job;
}
