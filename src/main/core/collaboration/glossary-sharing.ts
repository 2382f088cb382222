import { randomUUID } from 'node:crypto';
import { VerbatimError } from '../../../shared/errors';
import type { GlossaryProposal } from '../../../shared/glossary/newsroom-glossary';
import type { Glossaries } from '../glossary/glossaries';
import { sharedEntryOf, type NewsroomCopy } from '../library/newsroom-glossary-store';
import { newsroomAddressText } from '../newsroom/newsroom-address';
import type { NewsroomConnection } from '../newsroom/newsroom-connection';
import {
  decideGlossaryProposal,
  glossaryProposals,
  shareGlossary,
  type SharedProposalRow,
} from '../newsroom/newsroom-glossaries';

/**
 * What needs the newsroom to answer (issue #36, point 1): sharing a glossary, and listing and
 * deciding proposals. Everything else a reporter does to a newsroom glossary is written to the
 * library first and sent by the sync.
 */

/**
 * Shares a glossary of the library with a desk (or the whole newsroom, `desk` null): it becomes
 * the newsroom's, and this library's glossary its copy. The newsroom id is kept in the library
 * before it is sent, so sharing again after a crash or a refusal shares the same glossary.
 */
export async function shareLibraryGlossary(
  glossaries: Glossaries,
  newsroom: NewsroomConnection,
  glossaryId: number,
  desk: string | null,
): Promise<NewsroomCopy> {
  const glossary = (await glossaries.list()).find((each) => each.id === glossaryId);
  if (!glossary) throw new VerbatimError('not_found', 'This glossary no longer exists.', { glossaryId });
  if (glossary.newsroom)
    throw new VerbatimError(
      'conflict',
      `“${glossary.name}” is shared already, with ${glossary.newsroom.desk ?? 'the whole newsroom'}.`,
    );
  const key = newsroomAddressText(newsroom.address);
  const id = await glossaries.inNewsroom((store) => store.shareId(glossaryId, key));
  const entries = await glossaries.entries({ glossaryId });
  const row = await shareGlossary(
    newsroom,
    { id, name: glossary.name, desk, entries: entries.map(sharedEntryOf) },
    randomUUID,
  );
  return glossaries.inNewsroom((store) => store.shared(glossaryId, row));
}

async function proposalsShown(
  glossaries: Glossaries,
  rows: readonly SharedProposalRow[],
): Promise<GlossaryProposal[]> {
  const copies = await glossaries.readNewsroom((store) => store.copies());
  return rows.map((row) => ({
    id: row.id,
    glossaryId: row.glossaryId,
    glossaryName: copies.find((copy) => copy.id === row.glossaryId)?.name ?? 'a newsroom glossary',
    entry: row.entry,
    proposedBy: row.proposedBy,
    proposedAt: row.proposedAt,
    state: row.state,
    decidedBy: row.decidedBy,
  }));
}

/** The proposals this user sees: their own, and the open ones they decide. */
export async function listGlossaryProposals(
  glossaries: Glossaries,
  newsroom: NewsroomConnection,
): Promise<GlossaryProposal[]> {
  return proposalsShown(glossaries, await glossaryProposals(newsroom));
}

/** Accepts (the entry goes in) or declines a proposal, by its id or the first characters of it. */
export async function decideProposal(
  glossaries: Glossaries,
  newsroom: NewsroomConnection,
  idOrPrefix: string,
  decision: 'accepted' | 'declined',
): Promise<GlossaryProposal> {
  const wanted = idOrPrefix.trim().toLowerCase();
  if (!/^[0-9a-f-]{4,36}$/.test(wanted))
    throw new VerbatimError(
      'invalid_input',
      `“${idOrPrefix}” is not a proposal's id: glossary proposals lists them.`,
    );
  const matching = (await glossaryProposals(newsroom, { state: 'open' })).filter((row) =>
    row.id.startsWith(wanted),
  );
  if (matching.length === 0)
    throw new VerbatimError(
      'not_found',
      `No open proposal has the id ${idOrPrefix}: glossary proposals lists them.`,
    );
  if (matching.length > 1)
    throw new VerbatimError(
      'invalid_input',
      `More than one proposal starts with ${idOrPrefix}: give more of its id.`,
    );
  const decided = await decideGlossaryProposal(newsroom, matching[0]!.id, decision);
  return (await proposalsShown(glossaries, [decided]))[0]!;
}
