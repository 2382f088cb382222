import { proposeGlossaryFixes, type GlossaryFixProposal } from '../../../shared/glossary/glossary-fixes';
import type { Library } from '../library/library';
import type { Glossaries } from './glossaries';

/** One transcript's proposals, for the review list. */
export interface TranscriptFixProposals {
  transcriptId: string;
  title: string;
  fixes: GlossaryFixProposal[];
}

/**
 * "Apply glossary" on transcripts already made (issue #21): for each, every place its corrected
 * text has a misheard form of the glossaries chosen (all of them without a choice). Only
 * completed transcripts have text; others are left out. Applying the accepted ones is an
 * ordinary correction (`corrections.edit` with the `fixes` intent), so it is undone as any other.
 */
export async function proposeFixes(
  library: Library,
  glossaries: Glossaries,
  transcriptIds: readonly string[],
  glossaryIds?: readonly number[],
): Promise<TranscriptFixProposals[]> {
  const ids = glossaryIds ?? (await glossaries.list()).map((glossary) => glossary.id);
  const entries = (await glossaries.entries()).filter((entry) => ids.includes(entry.glossaryId));
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
