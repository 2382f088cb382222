import { z } from 'zod';
import { wordSchema } from '../../../shared/library';

/**
 * The service's responses as Verbatim relies on them. Only what we use is required; every
 * schema is loose, so fields the service adds tomorrow pass through untouched (and the full
 * transcript JSON is stored as the service sent it).
 */

export const transcriptStatusSchema = z.enum(['queued', 'processing', 'completed', 'error']);
export type TranscriptStatus = z.infer<typeof transcriptStatusSchema>;

export const transcriptSchema = z.looseObject({
  id: z.string().min(1),
  status: transcriptStatusSchema,
  audio_url: z.string(),
  error: z.string().nullish(),
  text: z.string().nullish(),
  words: z.array(wordSchema.loose()).nullish(),
  language_code: z.string().nullish(),
  audio_duration: z.number().nullish(),
  confidence: z.number().nullish(),
});
export type Transcript = z.infer<typeof transcriptSchema>;

const segmentSchema = z.looseObject({
  text: z.string(),
  start: z.number(),
  end: z.number(),
  confidence: z.number().nullish(),
  speaker: z.string().nullish(),
  words: z.array(wordSchema.loose()).default([]),
});
export type ServiceSegment = z.infer<typeof segmentSchema>;

export const sentencesSchema = z.looseObject({
  id: z.string(),
  sentences: z.array(segmentSchema),
  confidence: z.number().nullish(),
  audio_duration: z.number().nullish(),
});

export const paragraphsSchema = z.looseObject({
  id: z.string(),
  paragraphs: z.array(segmentSchema),
  confidence: z.number().nullish(),
  audio_duration: z.number().nullish(),
});

export const uploadSchema = z.looseObject({ upload_url: z.string().min(1) });

// GET /v2/transcript is not shown in the spec; this is the real service's documented shape.
export const transcriptListSchema = z.looseObject({
  page_details: z.looseObject({
    limit: z.number(),
    result_count: z.number(),
    current_url: z.string().nullish(),
    prev_url: z.string().nullish(),
    next_url: z.string().nullish(),
  }),
  transcripts: z.array(
    z.looseObject({
      id: z.string(),
      status: transcriptStatusSchema,
      audio_url: z.string(),
      created: z.string().nullish(),
      completed: z.string().nullish(),
      error: z.string().nullish(),
    }),
  ),
});
export type TranscriptList = z.infer<typeof transcriptListSchema>;

// /word-search is not shown in the spec; this is the real service's documented shape.
export const wordSearchSchema = z.looseObject({
  id: z.string(),
  total_count: z.number(),
  matches: z.array(
    z.looseObject({
      text: z.string(),
      count: z.number(),
      timestamps: z.array(z.tuple([z.number(), z.number()])),
      indexes: z.array(z.number()),
    }),
  ),
});
export type WordSearch = z.infer<typeof wordSearchSchema>;

// /redacted-audio is not shown in the spec; this is the real service's documented shape.
export const redactedAudioSchema = z.looseObject({
  status: z.string(),
  redacted_audio_url: z.string(),
});
