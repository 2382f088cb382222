import { z } from 'zod';
import {
  highlightColorSchema,
  highlightLabelSchema,
  highlightNoteMaxLength,
  highlightSchema,
  highlightsChangedSchema,
  newHighlightSchema,
  quoteFiltersSchema,
  quoteFacetsSchema,
  quotePageSchema,
  storyNameMaxLength,
  storiesChangedSchema,
  storySchema,
  storySummarySchema,
} from '../highlights';

/**
 * Highlights, the Quotes view and stories (issue #20). A highlight is created from a time span
 * and snaps to the words whose time overlaps it (see highlight-store.ts); a span with no words
 * is refused. Every change is announced as `highlights.changed` (the transcripts whose
 * highlights changed) or `stories.changed` (the stories that changed), so the reader, the
 * Quotes view and the Stories view of every window update themselves.
 */
const highlightId = z.number().int();
const storyId = z.number().int();
const itemId = z.number().int();
const storyName = z.string().trim().min(1, 'A story needs a name.').max(storyNameMaxLength);
/** Where an item goes in its story, 0 being the top; past the end (or absent) means at the end. */
const index = z.number().int().min(0);
const storyTextMaxLength = 20_000;

export const highlightsContract = {
  'highlights.labels': { input: z.undefined(), output: z.array(highlightLabelSchema) },
  /** Renames or recolours a label; every highlight with it follows. */
  'highlights.updateLabel': {
    input: z
      .object({
        id: z.number().int(),
        name: z.string().trim().min(1, 'A label needs a name.').max(40).optional(),
        color: highlightColorSchema.optional(),
      })
      .strict(),
    output: highlightLabelSchema,
  },
  /** Highlights the words spoken in the span (those whose time overlaps it). */
  'highlights.create': { input: newHighlightSchema, output: highlightSchema },
  'highlights.update': {
    input: z
      .object({
        id: highlightId,
        labelId: z.number().int().optional(),
        note: z.string().max(highlightNoteMaxLength).optional(),
      })
      .strict(),
    output: highlightSchema,
  },
  /** Deletes a highlight; story quotes of it keep their last words as a missing quote. */
  'highlights.delete': {
    input: z.object({ id: highlightId }).strict(),
    output: z.object({ deleted: z.number() }),
  },
  /** A transcript's highlights in the order they are spoken. */
  'highlights.list': {
    input: z.object({ transcriptId: z.string().min(1).max(100) }).strict(),
    output: z.array(highlightSchema),
  },
  /** The Quotes view: every highlight of the library matching the filters, newest recording first. */
  'quotes.list': {
    input: quoteFiltersSchema,
    output: quotePageSchema,
  },
  'quotes.facets': { input: z.undefined(), output: quoteFacetsSchema },
  'stories.list': { input: z.undefined(), output: z.array(storySummarySchema) },
  /** The stories mentioning every word (name, own text, quotes' words, speakers, sources), with where first. */
  'stories.search': {
    input: z.object({ query: z.string().max(200) }).strict(),
    output: z.array(storySummarySchema.extend({ match: z.string() })),
  },
  'stories.create': { input: z.object({ name: storyName }).strict(), output: storySchema },
  'stories.rename': { input: z.object({ id: storyId, name: storyName }).strict(), output: storySchema },
  'stories.delete': { input: z.object({ id: storyId }).strict(), output: z.object({ deleted: z.number() }) },
  'stories.get': { input: z.object({ id: storyId }).strict(), output: storySchema },
  /**
   * Adds a highlight as a quote at `index` (the end when absent). When the story already quotes
   * the highlight it is refused as a `conflict` whose details (quoteAlreadyInStorySchema) say
   * where, unless `again` says to quote it twice.
   */
  'stories.addQuote': {
    input: z
      .object({ storyId, highlightId, index: index.optional(), again: z.boolean().optional() })
      .strict(),
    output: storySchema,
  },
  /** Adds the journalist's own text (a heading, a linking sentence) at `index` (the end when absent). */
  'stories.addText': {
    input: z.object({ storyId, text: z.string().max(storyTextMaxLength), index: index.optional() }).strict(),
    output: storySchema,
  },
  'stories.editText': {
    input: z.object({ storyId, itemId, text: z.string().max(storyTextMaxLength) }).strict(),
    output: storySchema,
  },
  /** Moves an item so that it ends up at `index` (0 = top). */
  'stories.moveItem': { input: z.object({ storyId, itemId, index }).strict(), output: storySchema },
  'stories.removeItem': { input: z.object({ storyId, itemId }).strict(), output: storySchema },
  /**
   * Trims a quote to a narrower span inside its own: the item gets a new highlight of that span
   * (same label and note), so the highlight in the reader, the Quotes view and other stories
   * keeps every word it had.
   */
  'stories.trimQuote': {
    input: z
      .object({ storyId, itemId, startMs: z.number().int().min(0), endMs: z.number().int().min(0) })
      .strict()
      .refine((value) => value.endMs > value.startMs, { message: 'A quote must end after it starts.' }),
    output: storySchema,
  },
  /** Before deleting a transcript: how many story quotes come from it, and in which stories. */
  'stories.quotesOf': {
    input: z.object({ transcriptId: z.string().min(1).max(100) }).strict(),
    output: z.object({ quotes: z.number().int(), stories: z.array(z.string()) }),
  },
};

export const highlightsEvents = {
  'highlights.changed': highlightsChangedSchema,
  'stories.changed': storiesChangedSchema,
};
