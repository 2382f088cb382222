import type { EditResult } from '../../../shared/corrections/corrections';
import { VerbatimError } from '../../../shared/errors';
import type { GlossaryEntry } from '../../../shared/glossary/glossary';
import {
  fixesIntent,
  proposeGlossaryFixes,
  type GlossaryFixProposal,
} from '../../../shared/glossary/glossary-fixes';
import type { Segment } from '../../../shared/library';
import type { Library } from '../library/library';
import type { Glossaries } from './glossaries';

/** One transcript's proposals, for the review list. */
export interface TranscriptFixProposals {
  transcriptId: string;
  title: string;
  fixes: GlossaryFixProposal[];
}

/** The entries of the glossaries chosen, all of them without a choice. */
async function chosenEntries(
  glossaries: Glossaries,
  glossaryIds: readonly number[] | undefined,
): Promise<GlossaryEntry[]> {
  const ids = glossaryIds ?? (await glossaries.list()).map((glossary) => glossary.id);
  return (await glossaries.entries()).filter((entry) => ids.includes(entry.glossaryId));
}

/**
 * "Apply glossary" on transcripts already made (issue #21): for each, every place its corrected
 * text has a misheard form of the glossaries chosen (all of them without a choice), never where
 * the fix would write a name twice (issue #31). Only completed transcripts have text; others are
 * left out. Applying the accepted ones is an ordinary correction (`corrections.edit` with the
 * `fixes` intent), so it is undone as any other.
 */
export async function proposeFixes(
  library: Library,
  glossaries: Glossaries,
  transcriptIds: readonly string[],
  glossaryIds?: readonly number[],
): Promise<TranscriptFixProposals[]> {
  const entries = await chosenEntries(glossaries, glossaryIds);
  const proposals: TranscriptFixProposals[] = [];
  for (const transcriptId of transcriptIds) {
    const job = await library.requireJob(transcriptId);
    if (job.status !== 'completed') continue;
    proposals.push({
      transcriptId,
      title: job.title,
      fixes: proposeGlossaryFixes(await library.sentences(transcriptId), entries),
    });
  }
  return proposals;
}

/** Tries when another window or command changed the transcript between reading and fixing it. */
const attemptsAfterConflict = 5;

/**
 * "Apply glossary" with every proposal accepted, as the command line's `glossary apply` makes it:
 * the same `fixes` correction the reader makes (one undo step), then the entries marked used, as
 * the reader marks them. The proposals are made from the words as read at a revision and the
 * edit carries it: if the transcript changed in between, they are made again from the new words.
 * With `dryRun` nothing is stored. The sentences are those the proposals were made from.
 */
export async function applyAllFixes(
  library: Library,
  glossaries: Glossaries,
  transcriptId: string,
  options: { glossaryIds?: readonly number[] | undefined; dryRun?: boolean | undefined } = {},
): Promise<{ fixes: GlossaryFixProposal[]; sentences: Segment[]; result: EditResult | undefined }> {
  const job = await library.requireJob(transcriptId);
  if (job.status !== 'completed')
    throw new VerbatimError(
      'invalid_input',
      `"${job.title}" is not finished yet (it is ${job.status}), so it has no words to fix.`,
    );
  const entries = await chosenEntries(glossaries, options.glossaryIds);
  for (let attempt = 1; ; attempt++) {
    const { revision } = await library.correctionState(transcriptId);
    const sentences = await library.sentences(transcriptId);
    const fixes = proposeGlossaryFixes(sentences, entries);
    if (options.dryRun || fixes.length === 0) return { fixes, sentences, result: undefined };
    try {
      const result = await library.edit(transcriptId, fixesIntent(fixes), { expectedRevision: revision });
      await glossaries.touch([...new Set(fixes.map((fix) => fix.entryId))]);
      return { fixes, sentences, result };
    } catch (error) {
      const changedMeanwhile = error instanceof VerbatimError && error.code === 'conflict';
      if (!changedMeanwhile || attempt === attemptsAfterConflict) throw error;
    }
  }
}
