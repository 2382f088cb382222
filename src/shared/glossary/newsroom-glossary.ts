import { z } from 'zod';
import { glossaryEntryKindSchema } from './glossary';
export { newsroomGlossaryStatusSchema, type NewsroomGlossaryStatus } from './glossary';

/**
 * A glossary shared with a desk or the whole newsroom (issue #36, point 1): every reporter's
 * library keeps a copy, used for new transcriptions like any glossary, and changes go through the
 * newsroom. The conflict rule, stated once here and in the loser's notice: **the change that
 * reaches the newsroom first wins**.
 */

/** What an entry holds, as the newsroom keeps it. */
export const sharedEntrySchema = z.object({
  term: z.string(),
  kind: glossaryEntryKindSchema,
  misheard: z.array(z.string()),
  note: z.string(),
});
export type SharedEntry = z.infer<typeof sharedEntrySchema>;

/**
 * The key of an entry in a newsroom glossary: its spelling trimmed and lower-cased. Not the
 * locale's lower case, so that every reporter's machine makes the same key of the same word.
 */
export function glossaryTermKey(term: string): string {
  return term.trim().toLowerCase();
}

/** Where a newsroom glossary is shared, in words: "City" or "the whole newsroom". */
export function sharedWith(desk: string | null): string {
  return desk === null ? 'the whole newsroom' : desk;
}

/** Who changes a newsroom glossary, in words: "cleo and the editors of City". */
export function whoChanges(owner: string, desk: string | null): string {
  return desk === null ? `${owner} and the newsroom's editors` : `${owner} and the editors of ${desk}`;
}

/**
 * Why this user may not change a newsroom glossary, and what to do instead: main's refusal and
 * the reason its window gives on each control it disables, in the same words.
 */
export function mayNotChange(copy: { name: string; owner: string; desk: string | null }): string {
  return `Only ${whoChanges(copy.owner, copy.desk)} change “${copy.name}”; propose the entry instead, and they decide whether it goes in.`;
}

/**
 * Why a newsroom glossary's copy is not deleted (the next pull would bring it back), and how to
 * stop using it: main's refusal and the reason on the window's disabled Delete.
 */
export function copyIsNotDeleted(copy: { name: string; desk: string | null }): string {
  return `“${copy.name}” is the newsroom's glossary, shared with ${sharedWith(copy.desk)}: untick “Use by default” to stop using it.`;
}

export const glossaryProposalStates = ['open', 'accepted', 'declined'] as const;

export const glossaryProposalSchema = z.object({
  id: z.string(),
  /** The newsroom glossary's id, and its name as this library shows it when it has a copy. */
  glossaryId: z.string(),
  glossaryName: z.string(),
  entry: sharedEntrySchema,
  proposedBy: z.string(),
  proposedAt: z.number(),
  state: z.enum(glossaryProposalStates),
  decidedBy: z.string().nullable(),
});
export type GlossaryProposal = z.infer<typeof glossaryProposalSchema>;

/** What one sync did, for the CLI's lines and the app's status. */
export const glossarySyncReportSchema = z.object({
  /** Changes made here that the newsroom took, and proposals sent. */
  sent: z.number().int(),
  proposalsSent: z.number().int(),
  /** What changed in this library's copies because of others, a sentence each. */
  changes: z.array(z.string()),
  /** Changes of this reporter that lost to a colleague's, a sentence each (the notice's). */
  conflicts: z.array(z.string()),
  /** Newsroom glossaries copied into this library for the first time (their names here). */
  newCopies: z.array(z.string()),
});
export type GlossarySyncReport = z.infer<typeof glossarySyncReportSchema>;

/**
 * What a sync did, a sentence each, for `glossary pull` and the window's "Pull now": what was
 * sent, new copies and colleagues' changes. Conflicts are `report.conflicts`, said apart (the
 * rule shown to the one who lost); "up to date" only when there is nothing at all to say.
 */
export function syncReportSentences(report: GlossarySyncReport): string[] {
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const lines = [
    ...(report.sent + report.proposalsSent > 0
      ? [`Sent ${plural(report.sent, 'change')} and ${plural(report.proposalsSent, 'proposal')}.`]
      : []),
    ...report.newCopies.map((name) => `New in your library: “${name}”, used for every new transcription.`),
    ...report.changes,
  ];
  return lines.length > 0 || report.conflicts.length > 0
    ? lines
    : ['Your newsroom glossaries are up to date.'];
}
