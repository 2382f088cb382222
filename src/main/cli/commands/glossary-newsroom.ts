import { VerbatimError } from '../../../shared/errors';
import { entrySummary, type Glossary, type GlossaryEntryKind } from '../../../shared/glossary/glossary';
import {
  sharedWith,
  syncReportSentences,
  whoChanges,
  type GlossarySyncReport,
} from '../../../shared/glossary/newsroom-glossary';
import {
  decideProposal,
  listGlossaryProposals,
  shareLibraryGlossary,
} from '../../core/collaboration/glossary-sharing';
import { createGlossarySync } from '../../core/collaboration/glossary-sync';
import type { Glossaries } from '../../core/glossary/glossaries';
import { NewsroomConnection } from '../../core/newsroom/newsroom-connection';
import { printResult } from '../cli-io';
import type { CommandContext } from '../command';
import { onlyWord } from '../command-words';
import { newsroomAccessOf } from '../environment';
import { UsageError } from '../usage-error';

/**
 * `glossary share|pull|propose|proposals|accept|decline` (issue #36, point 1): newsroom glossaries
 * from a terminal, as the user of VERBATIM_NEWSROOM_URL. What a reporter changes is written to
 * the library first and then sent by one sync, which says "sent" or why it waits; sharing and
 * deciding proposals need the newsroom to answer.
 */
export interface NewsroomGlossaryValues {
  desk?: string | undefined;
  'whole-newsroom'?: boolean | undefined;
  kind?: GlossaryEntryKind | undefined;
  misheard?: string[] | undefined;
  note?: string | undefined;
  json: boolean;
}

type Context = Pick<CommandContext, 'io' | 'openLibrary'>;

function glossariesOf(context: Context): Glossaries {
  return context.openLibrary({ showProgress: false }).core.glossaries;
}

/** Runs work on a connection as the user of VERBATIM_NEWSROOM_URL, closed after. */
async function withNewsroom<T>(
  context: Context,
  work: (newsroom: NewsroomConnection) => Promise<T>,
): Promise<T> {
  const access = newsroomAccessOf(context.io.env);
  const newsroom = new NewsroomConnection(access.address, access.password);
  try {
    return await work(newsroom);
  } finally {
    await newsroom.close();
  }
}

function syncOnce(context: Context, glossaries: Glossaries): Promise<GlossarySyncReport> {
  return withNewsroom(context, (newsroom) =>
    createGlossarySync({ glossaries, newsroom: (work) => work(newsroom) }).sync(),
  );
}

/**
 * After a change written to the library: one sync, and what became of it in words: "sent", or
 * "waits: <why>; it is sent by the next command or the app". Conflicts it met are said too.
 */
export async function sendAfterChange(
  context: Context,
  glossaries: Glossaries,
): Promise<{ sent: boolean; waits?: string; report?: GlossarySyncReport }> {
  try {
    const report = await syncOnce(context, glossaries);
    return { sent: true, report };
  } catch (error) {
    if (!(error instanceof VerbatimError)) throw error;
    return { sent: false, waits: error.message.replace(/\.$/, '') };
  }
}

export function sendLine(outcome: { sent: boolean; waits?: string; report?: GlossarySyncReport }): string[] {
  if (!outcome.sent) return [`Waits: ${outcome.waits}; it is sent by the next command or the app.`];
  return ['Sent to the newsroom.', ...(outcome.report?.conflicts ?? [])];
}

/** The copy a glossary is, or the sentence that says it is not a newsroom glossary. */
function newsroomGlossary(glossary: Glossary): NonNullable<Glossary['newsroom']> {
  if (!glossary.newsroom)
    throw new VerbatimError(
      'invalid_input',
      `“${glossary.name}” is not a newsroom glossary: share it first (glossary share "${glossary.name}" --desk NAME), or run glossary pull to get your desks' glossaries.`,
    );
  return glossary.newsroom;
}

export async function shareAction(
  words: string[],
  values: NewsroomGlossaryValues,
  context: Context,
): Promise<number> {
  const name = onlyWord(
    words,
    'glossary share needs the glossary to share: glossary share "<name>" --desk NAME',
  );
  if ((values.desk === undefined) === !values['whole-newsroom'])
    throw new UsageError('glossary share needs either --desk NAME or --whole-newsroom');
  const glossaries = glossariesOf(context);
  const glossary = await glossaries.named(name);
  const copy = await withNewsroom(context, (newsroom) =>
    shareLibraryGlossary(glossaries, newsroom, glossary.id, values.desk ?? null),
  );
  printResult(
    context.io,
    values.json,
    { glossary: glossary.name, newsroom: copy },
    () =>
      `Shared “${glossary.name}” with ${sharedWith(copy.desk)}: ${whoChanges(copy.owner, copy.desk)} change it, and everyone it is shared with gets it with glossary pull or the app.`,
  );
  return 0;
}

export async function pullAction(
  words: string[],
  values: NewsroomGlossaryValues,
  context: Context,
): Promise<number> {
  if (words.length > 0) throw new UsageError('glossary pull takes no more words');
  const report = await syncOnce(context, glossariesOf(context));
  printResult(context.io, values.json, report, () =>
    [...syncReportSentences(report), ...report.conflicts].join('\n'),
  );
  return 0;
}

export async function proposeAction(
  words: string[],
  values: NewsroomGlossaryValues,
  context: Context,
): Promise<number> {
  if (words.length !== 2)
    throw new UsageError(
      'glossary propose needs the glossary and the term: glossary propose "<glossary>" "<term>"',
    );
  const [name, term] = words as [string, string];
  const glossaries = glossariesOf(context);
  const glossary = await glossaries.named(name);
  newsroomGlossary(glossary);
  const outcome = await glossaries.propose(glossary.id, {
    term,
    ...(values.kind === undefined ? {} : { kind: values.kind }),
    misheard: values.misheard ?? [],
    ...(values.note === undefined ? {} : { note: values.note }),
  });
  const sending = await sendAfterChange(context, glossaries);
  printResult(context.io, values.json, { glossary: glossary.name, ...outcome, ...sending }, () =>
    [
      outcome.proposed
        ? `Proposed “${term.trim()}” for “${glossary.name}”.`
        : `You change “${glossary.name}” yourself: “${outcome.entry.term}” is ${outcome.created ? 'added' : 'updated'} (${entrySummary(outcome.entry)}).`,
      ...sendLine(sending),
    ].join('\n'),
  );
  return 0;
}

export async function proposalsAction(
  words: string[],
  values: NewsroomGlossaryValues,
  context: Context,
): Promise<number> {
  if (words.length > 0) throw new UsageError('glossary proposals takes no more words');
  const glossaries = glossariesOf(context);
  const proposals = await withNewsroom(context, (newsroom) => listGlossaryProposals(glossaries, newsroom));
  printResult(context.io, values.json, proposals, () =>
    proposals.length === 0
      ? 'No proposals.'
      : proposals
          .map(
            (proposal) =>
              `  ${proposal.id.slice(0, 8)}  ${proposal.proposedBy} proposes “${proposal.entry.term}” (${entrySummary(proposal.entry)}) for “${proposal.glossaryName}”: ${proposal.state === 'open' ? 'open' : `${proposal.state} by ${proposal.decidedBy ?? 'someone'}`}`,
          )
          .join('\n'),
  );
  return 0;
}

export function decideAction(decision: 'accepted' | 'declined') {
  return async (words: string[], values: NewsroomGlossaryValues, context: Context): Promise<number> => {
    const verb = decision === 'accepted' ? 'accept' : 'decline';
    const id = onlyWord(words, `glossary ${verb} needs the proposal's id (glossary proposals lists them)`);
    const glossaries = glossariesOf(context);
    const decided = await withNewsroom(context, (newsroom) =>
      decideProposal(glossaries, newsroom, id, decision),
    );
    // The accepted entry comes into this library's copy at once.
    const sending = await sendAfterChange(context, glossaries);
    printResult(context.io, values.json, { proposal: decided, ...sending }, () =>
      [
        `${decision === 'accepted' ? 'Accepted' : 'Declined'} ${decided.proposedBy}'s “${decided.entry.term}” ${decision === 'accepted' ? 'into' : 'for'} “${decided.glossaryName}”.`,
        ...(sending.report?.conflicts ?? []),
      ].join('\n'),
    );
    return 0;
  };
}
