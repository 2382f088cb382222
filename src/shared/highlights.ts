import { z } from 'zod';
import { quoteCheckSchema } from './quote-check';

/**
 * Highlights and stories (issue #20), shared by main, the contract, the CLI and the renderer.
 *
 * A highlight is anchored to a time span of one transcript, not to word positions: corrections
 * keep the times of unchanged words and give a corrected word the time of the words it
 * replaced, so the words inside the span are always the highlight's words as corrected now. A
 * span whose words were all deleted is `missing` and says so instead of vanishing.
 *
 * A story is an ordered list of items: quotes (a highlight) and the journalist's own text
 * between them. A quote item keeps a snapshot of what it showed (words, speaker, transcript,
 * date, time), so a quote whose transcript was deleted can be kept as text.
 */

export const highlightColorSchema = z.enum(['yellow', 'red', 'blue', 'green', 'purple']);
export type HighlightColor = z.infer<typeof highlightColorSchema>;

export const highlightLabelSchema = z.object({
  id: z.number().int(),
  name: z.string().min(1).max(40),
  color: highlightColorSchema,
});
export type HighlightLabel = z.infer<typeof highlightLabelSchema>;

/** The labels a new library starts with; the journalist can rename them. */
export const defaultHighlightLabels: readonly Omit<HighlightLabel, 'id'>[] = [
  { name: 'Quote', color: 'yellow' },
  { name: 'Check', color: 'red' },
  { name: 'Background', color: 'blue' },
];

export const highlightNoteMaxLength = 2000;

export const highlightSchema = z.object({
  id: z.number().int(),
  transcriptId: z.string(),
  /** The span the highlight covers; its words are the words spoken inside it, as corrected. */
  startMs: z.number().int(),
  endMs: z.number().int(),
  labelId: z.number().int(),
  note: z.string(),
  createdAt: z.number().int(),
  /** The covered words as they read now (the last words known when `missing`). */
  text: z.string(),
  /** The speaker label of the first covered word, and the name the journalist gave it. */
  speaker: z.string().nullable(),
  speakerName: z.string().nullable(),
  /** True when every word of the span was deleted by a correction. */
  missing: z.boolean(),
});
export type Highlight = z.infer<typeof highlightSchema>;

/**
 * Who recorded a quote of a copy kept from the newsroom (issue #35, point 6): its citation names
 * them. Absent for a quote of the reporter's own transcript.
 */
export const recordedBySchema = z.object({ reporter: z.string(), desk: z.string() });
export type RecordedBy = z.infer<typeof recordedBySchema>;

/** A highlight as the Quotes view lists it: with its transcript's title and recording date. */
export const quoteSchema = highlightSchema.extend({
  transcriptTitle: z.string(),
  /** When the transcript was made (the library's "recorded" date). */
  recordedAt: z.number().int(),
  /** The transcript's language ("en", "fr"…), null when not known: its quotation marks. */
  languageCode: z.string().nullable(),
  labelName: z.string(),
  labelColor: highlightColorSchema,
  recordedBy: recordedBySchema.optional(),
  /** Checked against the audio (every paragraph it touches stamped): by whom and when; else null. */
  checked: quoteCheckSchema.nullable(),
});
export type Quote = z.infer<typeof quoteSchema>;

/**
 * A page of the Quotes view. As in library search, the total is counted up to a cap and
 * reported as "at least" beyond it, which keeps every keystroke's count cheap.
 */
export const quotePageSchema = z.object({
  quotes: z.array(quoteSchema),
  total: z.number().int(),
  totalIsLowerBound: z.boolean(),
});
export type QuotePage = z.infer<typeof quotePageSchema>;

/** What the Quotes view's filters offer: only the transcripts, speakers and tags that have quotes. */
export const quoteFacetsSchema = z.object({
  transcripts: z.array(z.object({ id: z.string(), title: z.string() })),
  /** `value` is what the speaker filter takes: the name given, or the service's label. */
  speakers: z.array(z.object({ value: z.string(), name: z.string() })),
  tags: z.array(z.string()),
});
export type QuoteFacets = z.infer<typeof quoteFacetsSchema>;

export const newHighlightSchema = z
  .object({
    transcriptId: z.string().min(1).max(100),
    startMs: z.number().int().min(0),
    endMs: z.number().int().min(0),
    labelId: z.number().int().optional(),
    note: z.string().max(highlightNoteMaxLength).default(''),
  })
  .strict()
  .refine((value) => value.endMs > value.startMs, { message: 'A highlight must end after it starts.' });
export type NewHighlight = z.input<typeof newHighlightSchema>;

export const quoteFiltersSchema = z
  .object({
    /** Full-text search over the highlighted words and the notes. */
    query: z.string().max(1000).optional(),
    labelId: z.number().int().optional(),
    speaker: z.string().max(200).optional(),
    tag: z.string().max(200).optional(),
    transcriptId: z.string().max(100).optional(),
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    limit: z.number().int().min(1).max(20_000).default(500),
    offset: z.number().int().min(0).default(0),
  })
  .strict();
export type QuoteFilters = z.input<typeof quoteFiltersSchema>;

export const storyNameMaxLength = 200;

export const storyItemSchema = z.discriminatedUnion('kind', [
  z.object({
    id: z.number().int(),
    kind: z.literal('quote'),
    /** Null once the quote's transcript was deleted and the journalist kept the quote as text. */
    highlightId: z.number().int().nullable(),
    /** What the quote shows now (or, without a highlight, what it showed last). */
    text: z.string(),
    speakerName: z.string().nullable(),
    transcriptId: z.string().nullable(),
    transcriptTitle: z.string(),
    recordedAt: z.number().int(),
    /** The transcript's language, for the quote's quotation marks; null when not known. */
    languageCode: z.string().nullable(),
    startMs: z.number().int(),
    endMs: z.number().int(),
    /** Every word of the quote was deleted by a correction, or its transcript is gone. */
    missing: z.boolean(),
    recordedBy: recordedBySchema.optional(),
    /**
     * Checked against the audio: by whom (null: the reporter) and when, else null. A shared
     * story's quote items carry the same field, filled from this.
     */
    checked: quoteCheckSchema.nullable(),
  }),
  z.object({ id: z.number().int(), kind: z.literal('text'), text: z.string() }),
]);
export type StoryItem = z.infer<typeof storyItemSchema>;

/**
 * Why a highlight was not added to a story: the story already quotes it (the details of a
 * `conflict` error), so the reporter can decide to add it again or not.
 */
export const quoteAlreadyInStorySchema = z.object({
  reason: z.literal('quote_already_in_story'),
  storyId: z.number().int(),
  storyName: z.string(),
  highlightId: z.number().int(),
  /** Where the story has it, counting its items from 1. */
  positions: z.array(z.number().int().min(1)).min(1),
  /** How many items the story has. */
  items: z.number().int(),
});
export type QuoteAlreadyInStory = z.infer<typeof quoteAlreadyInStorySchema>;

/** "item 2 of 5", or "items 2 and 4 of 5" when the story quotes it more than once. */
export function placesInStory({
  positions,
  items,
}: Pick<QuoteAlreadyInStory, 'positions' | 'items'>): string {
  const listed =
    positions.length === 1
      ? `item ${positions[0]}`
      : `items ${positions.slice(0, -1).join(', ')} and ${positions[positions.length - 1]}`;
  return `${listed} of ${items}`;
}

export const storySummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  quotes: z.number().int(),
});
export type StorySummary = z.infer<typeof storySummarySchema>;

export const storySchema = storySummarySchema.extend({ items: z.array(storyItemSchema) });
export type Story = z.infer<typeof storySchema>;

/** What deleting a transcript does to its quotes in stories: keep them as text, or take them out. */
export const quotesOnDeleteSchema = z.enum(['keep-as-text', 'remove']);
export type QuotesOnDelete = z.infer<typeof quotesOnDeleteSchema>;

/** Highlights of these transcripts were made, changed, deleted or followed a correction. */
export const highlightsChangedSchema = z.object({ transcriptIds: z.array(z.string()) });
export type HighlightsChanged = z.infer<typeof highlightsChangedSchema>;
/** These stories changed (items, name, a quote's words); deleted ones are included. */
export const storiesChangedSchema = z.object({ storyIds: z.array(z.number().int()) });
export type StoriesChanged = z.infer<typeof storiesChangedSchema>;
