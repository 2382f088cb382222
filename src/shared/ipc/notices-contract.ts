import { z } from 'zod';
import { storedNoticeSchema } from '../collaboration-notice';

/**
 * The notices of working together (issue #36, point 4): a colleague's comment, an approval, a
 * request, a glossary entry on the reporter's desk, a change of theirs that lost. The window
 * lists them with a badge of the unread; opening one marks it read.
 */
const noticesSchema = z.object({
  notices: z.array(storedNoticeSchema),
  unread: z.number().int().nonnegative(),
});

export const noticesContract = {
  /** The newest notices, and how many are unread. */
  'notices.list': {
    input: z
      .object({ limit: z.number().int().min(1).max(500).default(100) })
      .strict()
      .default({ limit: 100 }),
    output: noticesSchema,
  },
  /** Marks these notices read, or every unread one when `ids` is absent. */
  'notices.markRead': {
    input: z.object({ ids: z.array(z.number().int().positive()).max(500).optional() }).strict(),
    output: z.object({ unread: z.number().int().nonnegative() }),
  },
} as const;

export const noticesEvents = {
  /** A notice arrived, or some were read: the unread count now, and the notice that arrived. */
  'notices.changed': z.object({
    unread: z.number().int().nonnegative(),
    added: storedNoticeSchema.optional(),
  }),
  /** The system's notification of a notice was clicked: open what it is about. */
  'notices.open': storedNoticeSchema,
};
