import { z } from 'zod';

/**
 * What working together tells a reporter (issue #36, point 4): a colleague's comment, an editor's
 * approval or request for a change, a new entry in a glossary of their desk, a change of theirs
 * that lost to a colleague's. The kinds of shared work raise them as they read what changed in
 * the newsroom (never for the reporter's own doing); the library keeps them until read, and the
 * app shows them in the window, with a badge, and as the system's notifications while the window
 * is elsewhere.
 */
export const collaborationNoticeKinds = [
  'comment',
  'reply',
  'approval',
  'change-request',
  'resolved',
  'story-shared',
  'glossary-entry',
  'glossary-proposal',
  'glossary-conflict',
] as const;
export type CollaborationNoticeKind = (typeof collaborationNoticeKinds)[number];

/** Where a notice leads when opened. */
export const collaborationNoticeTargetSchema = z.discriminatedUnion('kind', [
  /** A shared story, by its key `<reporter>/<story id>`, at a quote (1-based) when it is about one. */
  z.object({
    kind: z.literal('story'),
    storyKey: z.string().min(1).max(300),
    quote: z.number().int().positive().optional(),
  }),
  /** A glossary of this library, at an entry when it is about one. */
  z.object({
    kind: z.literal('glossary'),
    glossaryId: z.number().int().positive(),
    term: z.string().max(200).optional(),
  }),
]);
export type CollaborationNoticeTarget = z.infer<typeof collaborationNoticeTargetSchema>;

/** A notice as a kind of shared work raises it. */
export const collaborationNoticeSchema = z.object({
  kind: z.enum(collaborationNoticeKinds),
  /** The newsroom login of the colleague who did it. */
  by: z.string().min(1).max(100),
  /** One sentence a journalist reads in the list and the system's notification. */
  text: z.string().min(1).max(2000),
  target: collaborationNoticeTargetSchema,
  /**
   * What makes it unique, so that reading the same change twice (a second process, a pull after
   * a crash) raises it once: e.g. `comment:<uuid>`.
   */
  key: z.string().min(1).max(300),
  /** When it happened in the newsroom (ms since the epoch). */
  at: z.number().int().nonnegative(),
});
export type CollaborationNotice = z.infer<typeof collaborationNoticeSchema>;

/** A notice as the library keeps it. */
export const storedNoticeSchema = collaborationNoticeSchema.extend({
  id: z.number().int().positive(),
  /** When this library heard of it. */
  receivedAt: z.number().int(),
  /** When the reporter read (opened or dismissed) it, or null while unread. */
  readAt: z.number().int().nullable(),
});
export type StoredNotice = z.infer<typeof storedNoticeSchema>;

/** The title of a notice's system notification: what happened, in a few words. */
export function noticeTitle(notice: Pick<CollaborationNotice, 'kind' | 'by'>): string {
  switch (notice.kind) {
    case 'comment':
      return `${notice.by} commented`;
    case 'reply':
      return `${notice.by} replied`;
    case 'approval':
      return `${notice.by} approved a quote`;
    case 'change-request':
      return `${notice.by} asks for a change`;
    case 'resolved':
      return `${notice.by} resolved a comment`;
    case 'story-shared':
      return `${notice.by} shared a story with you`;
    case 'glossary-entry':
      return `${notice.by} changed a newsroom glossary`;
    case 'glossary-proposal':
      return `${notice.by} proposes a glossary entry`;
    case 'glossary-conflict':
      return 'Your glossary change was not applied';
  }
}
