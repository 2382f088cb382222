import { z } from 'zod';
import { wordSchema } from './library';

/**
 * Searching the newsroom's archive (issue #35, point 6): what is asked and what comes back,
 * shared by the core, the CLI and the IPC contract. Times are milliseconds since the epoch.
 */

export const newsroomSearchLimitMax = 200;

export const newsroomSearchQuerySchema = z
  .object({
    /** As typed: quoted phrases, OR, -word; the last word typed is also matched as a prefix. */
    text: z.string().max(1000),
    desk: z.string().min(1).max(50).optional(),
    reporter: z.string().min(1).max(63).optional(),
    /** A speaker's label or the name the reporter gave them (any case). */
    speaker: z.string().min(1).max(200).optional(),
    tag: z.string().min(1).max(100).optional(),
    /** Recorded at or after. */
    from: z.number().int().optional(),
    /** Recorded before. */
    to: z.number().int().optional(),
    limit: z.number().int().min(1).max(newsroomSearchLimitMax).default(50),
    /** The `nextCursor` of the page before. */
    cursor: z.string().max(100).optional(),
  })
  .strict();
export type NewsroomSearchQuery = z.input<typeof newsroomSearchQuerySchema>;

/** Where a hit's sentence holds what was searched for: UTF-16 offsets into its text, end exclusive. */
export const matchSpanSchema = z.object({ start: z.number().int(), end: z.number().int() });
export type MatchSpan = z.infer<typeof matchSpanSchema>;

export const newsroomHitSchema = z.object({
  reporter: z.string(),
  desk: z.string(),
  transcriptId: z.string(),
  title: z.string(),
  recordedAt: z.number(),
  sentence: z.object({
    position: z.number().int(),
    startMs: z.number(),
    endMs: z.number(),
    speaker: z.string().nullable(),
    speakerName: z.string().nullable(),
    text: z.string(),
  }),
  matches: z.array(matchSpanSchema),
});
export type NewsroomHit = z.infer<typeof newsroomHitSchema>;

export const newsroomSearchPageSchema = z.object({
  hits: z.array(newsroomHitSchema),
  /** How many sentences match, counted up to `totalCap`; `totalCapped` when there are more. */
  total: z.number().int(),
  totalCapped: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type NewsroomSearchPage = z.infer<typeof newsroomSearchPageSchema>;

export const newsroomTranscriptRefSchema = z
  .object({ reporter: z.string().min(1).max(63), transcriptId: z.string().min(1).max(200) })
  .strict();
export type NewsroomTranscriptRef = z.infer<typeof newsroomTranscriptRefSchema>;

export const newsroomTranscriptSchema = z.object({
  reporter: z.string(),
  transcriptId: z.string(),
  desk: z.string(),
  confidential: z.boolean(),
  revision: z.number().int(),
  title: z.string(),
  recordedAt: z.number(),
  languageCode: z.string().nullable(),
  durationMs: z.number().nullable(),
  redacted: z.boolean(),
  hasAudio: z.boolean(),
  speakers: z.array(z.object({ label: z.string(), name: z.string().nullable() })),
  tags: z.array(z.string()),
  /**
   * The reporter's paragraphs' time spans, which the stamps number; null for a revision
   * published before they travelled (issue #36, point 3).
   */
  paragraphs: z.array(z.object({ startMs: z.number(), endMs: z.number() })).nullable(),
  /** The paragraphs checked against the audio: when, and by whom (a newsroom login). */
  checkedParagraphs: z.array(
    z.object({ paragraph: z.number().int(), checkedAt: z.number(), checkedBy: z.string() }),
  ),
  sentences: z.array(
    z.object({
      position: z.number().int(),
      startMs: z.number(),
      endMs: z.number(),
      speaker: z.string().nullable(),
      text: z.string(),
      words: z.array(wordSchema),
    }),
  ),
  highlights: z.array(
    z.object({
      startMs: z.number(),
      endMs: z.number(),
      label: z.string(),
      note: z.string(),
      text: z.string(),
      speaker: z.string().nullable(),
    }),
  ),
});
export type NewsroomTranscript = z.infer<typeof newsroomTranscriptSchema>;
