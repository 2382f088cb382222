import { z } from 'zod';

/**
 * Stories an editor reviews (issue #36, point 2), shared by the core, the contract, the CLI and
 * the renderer. A reporter shares one of their stories with their desk's editor; the story as
 * shared is a list of items (their own text, and quotes with the words, the speaker, the source
 * and its citation), each keyed by its item id in the reporter's library so a comment or an
 * approval stays with its quote when the story is shared again.
 *
 * A shared story is named `<reporter>/<story id>`: the reporter's newsroom login and the story's
 * id in their library, as `newsroom keep ana/<id>` names a colleague's transcript.
 */

export const storyCommentMaxLength = 4000;

/** `ana/3`: the reporter's login, a slash, the story's id in their library. */
export const sharedStoryKeySchema = z.string().regex(/^[^/\s]{1,63}\/\d{1,15}$/, 'Not a shared story key.');

export function sharedStoryKey(reporter: string, storyId: number): string {
  return `${reporter}/${storyId}`;
}

/** The reporter and story id of a key such as `ana/3`, or undefined when it is not one. */
export function parseSharedStoryKey(key: string): { reporter: string; storyId: number } | undefined {
  const match = /^([^/\s]{1,63})\/(\d{1,15})$/.exec(key.trim());
  return match ? { reporter: match[1]!, storyId: Number(match[2]) } : undefined;
}

/** Who checked a quote against the tape (every paragraph it touches stamped), and when; null when not. */
export const quoteCheckedSchema = z.object({ by: z.string(), at: z.number().int() }).nullable();

export const sharedStoryItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), key: z.string(), text: z.string() }),
  z.object({
    kind: z.literal('quote'),
    /** The quote's story item id in the reporter's library: comments and approvals hold it. */
    key: z.string(),
    text: z.string(),
    speakerName: z.string().nullable(),
    transcriptTitle: z.string(),
    recordedAt: z.number().int(),
    languageCode: z.string().nullable(),
    startMs: z.number().int(),
    endMs: z.number().int(),
    /** As a story export prints it (without its dash). */
    citation: z.string(),
    checked: quoteCheckedSchema,
  }),
]);
export type SharedStoryItem = z.infer<typeof sharedStoryItemSchema>;
export type SharedQuote = Extract<SharedStoryItem, { kind: 'quote' }>;

/** What a comment is about: a quote, or a passage of the reporter's text (char offsets in its item). */
export const commentAnchorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('quote'), quoteKey: z.string().min(1).max(20) }).strict(),
  z
    .object({
      kind: z.literal('passage'),
      itemKey: z.string().min(1).max(20),
      from: z.number().int().min(0),
      to: z.number().int().min(0),
      words: z.string().min(1).max(2000),
    })
    .strict(),
]);
export type CommentAnchor = z.infer<typeof commentAnchorSchema>;

export const storyCommentKindSchema = z.enum(['comment', 'change-request']);
export type StoryCommentKind = z.infer<typeof storyCommentKindSchema>;

export const storyCommentSchema = z.object({
  /** Made by the app that wrote it, so sending it again stores it once. */
  id: z.string().uuid(),
  storyKey: z.string(),
  author: z.string(),
  anchor: commentAnchorSchema,
  kind: storyCommentKindSchema,
  body: z.string(),
  /** The comment this one answers (a reply is anchored where its comment is). */
  replyTo: z.string().uuid().nullable(),
  createdAt: z.number().int(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.number().int().nullable(),
  /** Written here and not yet taken by the newsroom (the comment, or its resolve). */
  waiting: z.boolean(),
});
export type StoryComment = z.infer<typeof storyCommentSchema>;

export const quoteApprovalSchema = z.object({
  storyKey: z.string(),
  quoteKey: z.string(),
  by: z.string(),
  at: z.number().int(),
  /** The editor took the approval back. */
  withdrawn: z.boolean(),
  waiting: z.boolean(),
});
export type QuoteApproval = z.infer<typeof quoteApprovalSchema>;

/** A shared story as this library last read it from the newsroom. */
export const sharedStorySummarySchema = z.object({
  key: z.string(),
  reporter: z.string(),
  storyId: z.number().int(),
  desk: z.string(),
  title: z.string(),
  revision: z.number().int(),
  sharedAt: z.number().int(),
  updatedAt: z.number().int(),
  /** This user shared it (they are its reporter). */
  mine: z.boolean(),
  quotes: z.number().int(),
  openComments: z.number().int(),
});
export type SharedStorySummary = z.infer<typeof sharedStorySummarySchema>;

export const sharedStorySchema = sharedStorySummarySchema.extend({
  items: z.array(sharedStoryItemSchema),
  /** Oldest first: their place in this list (from 1) is their number in `story comments`. */
  comments: z.array(storyCommentSchema),
  approvals: z.array(quoteApprovalSchema),
});
export type SharedStory = z.infer<typeof sharedStorySchema>;

/** A story of this user's, shared or waiting to be: what the library asked and what the newsroom has. */
export const storyShareSchema = z.object({
  storyId: z.number().int(),
  key: z.string(),
  desk: z.string(),
  revisionAsked: z.number().int(),
  revisionSent: z.number().int(),
  /** Why the newsroom refused it (not a member of the desk…), null when it did not. */
  error: z.string().nullable(),
});
export type StoryShare = z.infer<typeof storyShareSchema>;

/** What one run of the review's sync did: sent everything, or what waits and why. */
export const reviewSyncOutcomeSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('sent') }),
  z.object({ state: z.literal('waiting'), reason: z.string() }),
]);
export type ReviewSyncOutcome = z.infer<typeof reviewSyncOutcomeSchema>;

/** "quote 2" for a quote key, by its place among the story's quotes (undefined once removed). */
export function quoteNumberOf(items: readonly SharedStoryItem[], quoteKey: string): number | undefined {
  const index = items.filter((item) => item.kind === 'quote').findIndex((item) => item.key === quoteKey);
  return index === -1 ? undefined : index + 1;
}
