import { z } from 'zod';

/** What the library stores and answers, shared by main, the contract and the renderer. */

export const jobStatusSchema = z.enum([
  'uploading',
  'submitting',
  'queued',
  'processing',
  'fetching',
  'completed',
  'error',
  'cancelled',
]);
export type JobStatus = z.infer<typeof jobStatusSchema>;
/** The longest title a transcript may have, on every surface (the form, the CLI, a rename). */
export const titleMaxLength = 300;

export const finishedStatuses: readonly JobStatus[] = ['completed', 'error', 'cancelled'];

export const regionSchema = z.enum(['us', 'eu']);
export type Region = z.infer<typeof regionSchema>;

/**
 * Where a read-only copy kept from the newsroom comes from (issue #35, point 6): the colleague
 * who recorded it, their transcript's id in the archive, its desk, the revision copied and when.
 */
export const newsroomOriginSchema = z.object({
  reporter: z.string(),
  transcriptId: z.string(),
  desk: z.string(),
  revision: z.number().int(),
  keptAt: z.number().int(),
});
export type NewsroomOrigin = z.infer<typeof newsroomOriginSchema>;

/** Why a copy kept from the newsroom refuses a change: every surface says the same. */
export const newsroomCopyReadOnly = "A colleague's transcript from the newsroom: read only";

export const transcriptSummarySchema = z.object({
  id: z.string(),
  remoteId: z.string().nullable(),
  region: regionSchema,
  title: z.string(),
  sourceKind: z.enum(['file', 'url']),
  source: z.string(),
  audioPath: z.string().nullable(),
  status: jobStatusSchema,
  error: z.string().nullable(),
  languageCode: z.string().nullable(),
  audioDurationMs: z.number().int().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  completedAt: z.number().int().nullable(),
  tags: z.array(z.string()),
  speakers: z.array(z.object({ label: z.string(), name: z.string().nullable() })),
  bytesTotal: z.number().int().nullable(),
  bytesSent: z.number().int(),
  /** Edits the journalist made that are in force (not undone). */
  corrections: z.number().int(),
  /** How much of the transcript was checked against the audio, in paragraphs. */
  review: z.object({ checked: z.number().int(), paragraphs: z.number().int() }),
  /** Only on a read-only copy kept from the newsroom; the reporter's own transcripts have none. */
  fromNewsroom: newsroomOriginSchema.optional(),
});
export type TranscriptSummary = z.infer<typeof transcriptSummarySchema>;

export const wordSchema = z.object({
  text: z.string(),
  start: z.number(),
  end: z.number(),
  confidence: z.number(),
  speaker: z.string().nullable().optional(),
  /** True for a word the journalist typed or changed: checked by a person, confidence 1. */
  corrected: z.boolean().optional(),
});
export type Word = z.infer<typeof wordSchema>;

export const segmentSchema = z.object({
  position: z.number().int(),
  startMs: z.number().int(),
  endMs: z.number().int(),
  speaker: z.string().nullable(),
  confidence: z.number().nullable(),
  text: z.string(),
  words: z.array(wordSchema),
});
export type Segment = z.infer<typeof segmentSchema>;

export const searchFiltersSchema = z
  .object({
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    tag: z.string().max(200).optional(),
    speaker: z.string().max(200).optional(),
    language: z.string().max(20).optional(),
    status: jobStatusSchema.optional(),
  })
  .strict();
export type SearchFilters = z.infer<typeof searchFiltersSchema>;

export const searchRequestSchema = z
  .object({
    query: z.string().max(1000),
    filters: searchFiltersSchema.default({}),
    limit: z.number().int().min(1).max(200).default(20),
    offset: z.number().int().min(0).default(0),
    /**
     * Who is searching (a window's search box): a newer search of the same searcher cancels an
     * older one that has not started yet.
     */
    searcher: z.string().max(100).optional(),
  })
  .strict();
export type SearchRequest = z.input<typeof searchRequestSchema>;

/** A snippet as plain-text pieces; `match` pieces are highlighted. Never HTML. */
export const snippetPartSchema = z.object({ text: z.string(), match: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

export const searchHitSchema = z.object({
  transcriptId: z.string(),
  transcriptTitle: z.string(),
  sentencePosition: z.number().int(),
  startMs: z.number().int(),
  endMs: z.number().int(),
  speaker: z.string().nullable(),
  speakerName: z.string().nullable(),
  snippet: z.array(snippetPartSchema),
  rank: z.number(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchPageSchema = z.object({
  hits: z.array(searchHitSchema),
  total: z.number().int(),
  /** True when there are more matches than were counted: show "1,000+". */
  totalIsLowerBound: z.boolean(),
  /**
   * How the hits are ordered: by relevance among every match, or (more matches than are
   * counted) by relevance among the most recent of them.
   */
  ranking: z.enum(['relevance', 'recent']),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type SearchPage = z.infer<typeof searchPageSchema>;
