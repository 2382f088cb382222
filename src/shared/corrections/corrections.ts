import { z } from 'zod';
import { wordSchema } from '../library';

/**
 * The journalist's corrections to a transcript, shared by main, the contract, the CLI and the
 * renderer. An edit is described by what the journalist meant (an intent: "this turn now
 * reads…", "this sentence is the mayor's"); main turns it into sentence changes with the pure
 * planner in edit-plan.ts, stores them beside the service's words, and answers with the same
 * changes so the reader can patch what it shows without reloading 30,000 words.
 */

/** A sentence as stored, without its position: what a change removes or inserts. */
export const sentenceContentSchema = z.object({
  startMs: z.number().int(),
  endMs: z.number().int(),
  speaker: z.string().nullable(),
  confidence: z.number().nullable(),
  text: z.string(),
  words: z.array(wordSchema),
});
export type SentenceContent = z.infer<typeof sentenceContentSchema>;

/**
 * Replaces `removed.length` sentences at `position` with `inserted`. The changes of one step
 * are in ascending order, do not overlap, and their positions count in the document as it was
 * before the step.
 */
export const sentenceChangeSchema = z.object({
  position: z.number().int().min(0),
  removed: z.array(sentenceContentSchema),
  inserted: z.array(sentenceContentSchema),
});
export type SentenceChange = z.infer<typeof sentenceChangeSchema>;
/** Changes applied together; an edit is one or more steps (typing that continues adds steps). */
export type EditStep = SentenceChange[];

/** A speaker already in the transcript (by label), or a new one the journalist names. */
export const speakerChoiceSchema = z.union([
  z.object({ label: z.string().min(1).max(50) }).strict(),
  z.object({ newName: z.string().trim().min(1, 'A new speaker needs a name.').max(200) }).strict(),
]);
export type SpeakerChoice = z.infer<typeof speakerChoiceSchema>;

const position = z.number().int().min(0);
/** The longest text one edit may carry: a three-hour transcript is about 200,000 characters. */
export const editTextMaxLength = 1_000_000;

export const editIntentSchema = z.discriminatedUnion('kind', [
  /** The sentences `from`..`from + count - 1` (usually a turn) now read `text`. */
  z
    .object({
      kind: z.literal('text'),
      from: position,
      count: z.number().int().min(1),
      text: z.string().max(editTextMaxLength),
    })
    .strict(),
  /** The sentences `from`..`from + count - 1` were said by another speaker. */
  z
    .object({
      kind: z.literal('speaker'),
      from: position,
      count: z.number().int().min(1),
      speaker: speakerChoiceSchema,
    })
    .strict(),
  /** From word `word` of sentence `position` to the end of its turn, another speaker talks. */
  z
    .object({
      kind: z.literal('split'),
      position,
      word: z.number().int().min(0),
      speaker: speakerChoiceSchema,
    })
    .strict(),
  /** The turn that starts at sentence `position` joins the turn before it. */
  z.object({ kind: z.literal('merge'), position: z.number().int().min(1) }).strict(),
  /** Find and replace: every occurrence, or only the `occurrence`-th match in sentence `at`. */
  z
    .object({
      kind: z.literal('replace'),
      find: z.string().min(1, 'Type the words to find.').max(1000),
      replacement: z.string().max(1000),
      wholeWord: z.boolean().default(false),
      matchCase: z.boolean().default(false),
      at: z
        .object({ position, occurrence: z.number().int().min(0) })
        .strict()
        .optional(),
    })
    .strict(),
  /**
   * Several fixes at once, one undo step (a glossary applied, issue #21): in sentence `position`
   * the `occurrence`-th whole-word match of `find`, ignoring case, becomes `replacement`.
   */
  z
    .object({
      kind: z.literal('fixes'),
      fixes: z
        .array(
          z
            .object({
              position,
              occurrence: z.number().int().min(0),
              find: z.string().min(1).max(1000),
              replacement: z.string().max(1000),
            })
            .strict(),
        )
        .min(1, 'Choose at least one fix to apply.')
        .max(10_000),
    })
    .strict(),
  /** Paragraph `paragraph` goes back to the service's words; without it, the whole transcript does. */
  z.object({ kind: z.literal('revert'), paragraph: position.optional() }).strict(),
]);
export type EditIntent = z.infer<typeof editIntentSchema>;
export type EditIntentInput = z.input<typeof editIntentSchema>;

export const paragraphCheckSchema = z.object({
  paragraph: z.number().int(),
  checkedAt: z.number().int(),
  /**
   * Who checked it: null for this library's reporter; the colleague's newsroom login for a
   * stamp that came with a transcript kept from the newsroom (issue #36, point 3).
   */
  checkedBy: z.string().nullable(),
});
export type ParagraphCheck = z.infer<typeof paragraphCheckSchema>;

/** What the reader needs to offer undo and redo and to show the review. */
export const correctionStateSchema = z.object({
  /** Goes up with every edit, undo and redo: an edit made against an older one is refused. */
  revision: z.number().int(),
  /** What Undo and Redo would do, in words ("Undo replace “Brenan”"), or null when nothing. */
  undo: z.string().nullable(),
  redo: z.string().nullable(),
  /** Edits in force. */
  applied: z.number().int(),
  checks: z.array(paragraphCheckSchema),
});
export type CorrectionState = z.infer<typeof correctionStateSchema>;

/** The answer to an edit, an undo or a redo: the steps to apply, in order, to the sentences shown. */
export const editResultSchema = z.object({
  /** The edit made (to continue it while the journalist types), or null for undo and redo. */
  editId: z.number().int().nullable(),
  steps: z.array(z.array(sentenceChangeSchema)),
  /** Replacements made by a find-and-replace (0 when nothing matched: nothing was stored). */
  replaced: z.number().int(),
  state: correctionStateSchema,
});
export type EditResult = z.infer<typeof editResultSchema>;

export const historyEntrySchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  summary: z.string(),
  at: z.number().int(),
  undone: z.boolean(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
