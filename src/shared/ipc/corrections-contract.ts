import { z } from 'zod';
import { segmentSchema } from '../library';
import {
  correctionStateSchema,
  editIntentSchema,
  editResultSchema,
  historyEntrySchema,
} from '../corrections/corrections';

/**
 * The correction workspace's part of the IPC contract. An edit says what the journalist meant
 * (see corrections.ts); the answer carries the sentence changes to patch the reader with and
 * the undo/redo state. Every change is also announced as `job.updated` (the library shows
 * each transcript's corrections and review progress).
 */
const id = z.string().min(1).max(100);
const transcriptRef = z.object({ id }).strict();

export const correctionsContract = {
  'corrections.edit': {
    input: z
      .object({
        id,
        intent: editIntentSchema,
        /** The revision the reader showed; a stale edit is refused with a `conflict`. */
        expectedRevision: z.number().int().min(0).optional(),
        /** Typing that continues the edit with this id joins it as one undo step. */
        continues: z.number().int().optional(),
      })
      .strict(),
    output: editResultSchema,
  },
  'corrections.undo': { input: transcriptRef, output: editResultSchema },
  'corrections.redo': { input: transcriptRef, output: editResultSchema },
  'corrections.history': { input: transcriptRef, output: z.array(historyEntrySchema) },
  /** The service's sentences before any correction, for "Show the machine transcript". */
  'corrections.machine': { input: transcriptRef, output: z.array(segmentSchema) },
  /** Stamps a paragraph (0-based) as checked against the audio now, or removes the stamp. */
  'corrections.check': {
    input: z.object({ id, paragraph: z.number().int().min(0), checked: z.boolean() }).strict(),
    output: correctionStateSchema,
  },
  /** The page stored the typing a quit asked it to flush (`corrections.flush`). */
  'corrections.flushed': {
    input: z.object({ request: z.number().int().min(1) }).strict(),
    output: z.object({}).strict(),
  },
};

export const editMenuActions = ['undo', 'redo'] as const;
export type EditMenuAction = (typeof editMenuActions)[number];

export const correctionsEvents = {
  /**
   * The desktop app's Edit → Undo or Redo was chosen: the window decides whether that is a text
   * field's own undo or the open transcript's history (main cannot tell which has the focus).
   */
  'corrections.menu': z.object({ action: z.enum(editMenuActions) }),
  /**
   * Verbatim is quitting: the page stores the turn being typed now, not a second later
   * (autosave), then answers `corrections.flushed` with the same request.
   */
  'corrections.flush': z.object({ request: z.number().int().min(1) }),
};
