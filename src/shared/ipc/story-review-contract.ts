import { z } from 'zod';
import {
  commentAnchorSchema,
  quoteApprovalSchema,
  reviewSyncOutcomeSchema,
  sharedStoryKeySchema,
  sharedStorySchema,
  sharedStorySummarySchema,
  storyCommentKindSchema,
  storyCommentMaxLength,
  storyCommentSchema,
  storyShareSchema,
} from '../story-review';

/**
 * Stories an editor reviews over the contract (issue #36, point 2), for the newsroom of Settings.
 * Every change is written to the library first and answered at once; one sync then runs, and
 * `reviews.changed` tells every window what changed (after the write, and again after the
 * sync has sent it and read what others did). `sent` says whether the newsroom took it, or why
 * it waits (it is sent by the next sync).
 */
const key = z.object({ key: sharedStoryKeySchema }).strict();

export const storyReviewContract = {
  /** Shares one of the user's stories with the editor of `desk` (or shares its next revision). */
  'reviews.share': {
    input: z.object({ storyId: z.number().int(), desk: z.string().trim().min(1).max(50) }).strict(),
    output: z.object({ share: storyShareSchema, sent: reviewSyncOutcomeSchema }),
  },
  /** Whether one of the user's stories is shared, where, and which revision the newsroom has. */
  'reviews.shareState': {
    input: z.object({ storyId: z.number().int() }).strict(),
    output: storyShareSchema.nullable(),
  },
  /** The shared stories the user can see (their own and, as an editor, their desk's), as last read. */
  'reviews.list': { input: z.undefined(), output: z.array(sharedStorySummarySchema) },
  /** One shared story with its comments (oldest first: their numbers) and approvals. */
  'reviews.get': { input: key, output: sharedStorySchema },
  /** Comments on a quote or a passage (`kind` 'change-request' asks for a change), or replies to a comment. */
  'reviews.comment': {
    input: z
      .object({
        key: sharedStoryKeySchema,
        anchor: commentAnchorSchema.optional(),
        replyTo: z.string().uuid().optional(),
        kind: storyCommentKindSchema.default('comment'),
        body: z.string().trim().min(1, 'A comment needs words.').max(storyCommentMaxLength),
      })
      .strict()
      .refine((input) => (input.anchor === undefined) !== (input.replyTo === undefined), {
        message: 'A comment is about a quote or a passage, or answers another comment.',
      }),
    output: z.object({ comment: storyCommentSchema, sent: reviewSyncOutcomeSchema }),
  },
  'reviews.resolve': {
    input: z.object({ key: sharedStoryKeySchema, commentId: z.string().uuid() }).strict(),
    output: z.object({ comment: storyCommentSchema, sent: reviewSyncOutcomeSchema }),
  },
  /** Approves a quote (`withdrawn` takes the approval back): the desk's editor only. */
  'reviews.approve': {
    input: z
      .object({
        key: sharedStoryKeySchema,
        quoteKey: z.string().min(1).max(20),
        withdrawn: z.boolean().default(false),
      })
      .strict(),
    output: z.object({ approval: quoteApprovalSchema, sent: reviewSyncOutcomeSchema }),
  },
  /**
   * A quote's sound as its reporter shared it, read from the newsroom: a `data:` address an
   * <audio> element plays in the window and in the browser alike (a shared clip is a few
   * seconds of WAV, and the editor has no recording of it in their library).
   */
  'reviews.clip': {
    input: z.object({ key: sharedStoryKeySchema, quoteKey: z.string().min(1).max(20) }).strict(),
    output: z.object({
      mimeType: z.string(),
      url: z.string().regex(/^data:audio\/[\w.+-]+;base64,/, 'Not the address of a sound.'),
    }),
  },
  /** Sends what waits and reads what changed now (the review opened, Retry). */
  'reviews.sync': { input: z.undefined(), output: reviewSyncOutcomeSchema },
} as const;

export const storyReviewChangedSchema = z.object({ keys: z.array(z.string()) });
export type StoryReviewChanged = z.infer<typeof storyReviewChangedSchema>;

export const storyReviewEvents = {
  /** These shared stories changed here or in the newsroom; an empty list: any may have. */
  'reviews.changed': storyReviewChangedSchema,
} as const;
