import { z } from 'zod';

/**
 * Zod schemas of the transcript shapes in /work/shared/spec/transcription-service.md ("Resources and
 * their fields"), for tests: the speech engine's tests parse its output with them, and the HTTP side's
 * tests may reuse them for whole responses. Objects are strict wherever the spec says additional
 * properties are not allowed (the transcript) and for the sub-objects it lists field by field. Where
 * the spec does not show a shape (sentiment results, chapters, translation), the real service's
 * documented shape is used, and the few properties the real service documents beyond the spec's
 * tables are marked as such.
 */

const milliseconds = z.number().int().nonnegative();
const probability = z.number().min(0).max(1);

export const timestampSchema = z.strictObject({ start: milliseconds, end: milliseconds });

export const wordSchema = z.strictObject({
  text: z.string().min(1),
  start: milliseconds,
  end: milliseconds,
  confidence: probability,
  speaker: z.string().nullable(),
  /** Real service, multichannel only: the word's channel ("1", "2", ...). */
  channel: z.string().optional(),
});

export const utteranceSchema = z.strictObject({
  text: z.string(),
  start: milliseconds,
  end: milliseconds,
  confidence: probability,
  speaker: z.string(),
  words: z.array(wordSchema),
  /** Real service, multichannel only. */
  channel: z.string().optional(),
  /** Real service, translation with match_original_utterance only. */
  translated_texts: z.record(z.string(), z.string()).optional(),
});

export const sentenceSchema = z.strictObject({
  text: z.string(),
  start: milliseconds,
  end: milliseconds,
  confidence: probability,
  words: z.array(wordSchema),
  speaker: z.string().nullable(),
  /** Real service, multichannel only. */
  channel: z.string().optional(),
});

export const paragraphSchema = z.strictObject({
  text: z.string(),
  start: milliseconds,
  end: milliseconds,
  confidence: probability,
  words: z.array(wordSchema),
});

export const entitySchema = z.strictObject({
  entity_type: z.string(),
  text: z.string(),
  start: milliseconds,
  end: milliseconds,
});

export const autoHighlightsResultSchema = z.strictObject({
  status: z.string(),
  results: z.array(
    z.strictObject({
      count: z.number().int().positive(),
      rank: z.number(),
      text: z.string(),
      timestamps: z.array(timestampSchema),
    }),
  ),
});

export const contentSafetyLabelsSchema = z.strictObject({
  status: z.string(),
  results: z.array(
    z.strictObject({
      text: z.string(),
      labels: z.array(z.strictObject({ label: z.string(), confidence: probability, severity: probability })),
      sentences_idx_start: z.number().int().nonnegative(),
      sentences_idx_end: z.number().int().nonnegative(),
      timestamp: timestampSchema,
    }),
  ),
  summary: z.record(z.string(), z.number()),
  severity_score_summary: z.record(
    z.string(),
    z.strictObject({ low: z.number(), medium: z.number(), high: z.number() }),
  ),
});

export const iabCategoriesResultSchema = z.strictObject({
  status: z.string(),
  results: z.array(
    z.strictObject({
      text: z.string(),
      labels: z.array(z.strictObject({ relevance: z.number(), label: z.string() })),
      timestamp: timestampSchema,
    }),
  ),
  summary: z.record(z.string(), z.number()),
});

/** Not shown in the spec: the real service's SentimentAnalysisResult. */
export const sentimentResultSchema = z.strictObject({
  text: z.string(),
  start: milliseconds,
  end: milliseconds,
  sentiment: z.enum(['POSITIVE', 'NEUTRAL', 'NEGATIVE']),
  confidence: probability,
  speaker: z.string().nullable(),
  channel: z.string().optional(),
});

/** Not shown in the spec: the real service's Chapter. */
export const chapterSchema = z.strictObject({
  gist: z.string(),
  headline: z.string(),
  summary: z.string(),
  start: milliseconds,
  end: milliseconds,
});

/** Not shown in the spec: the real service's translated_texts, target language code → text. */
export const translatedTextsSchema = z.record(z.string(), z.string());

/** What processing produces (the speech engine's `fields`); the HTTP side adds the request echo. */
export const transcriptFieldsSchema = z.strictObject({
  text: z.string(),
  words: z.array(wordSchema),
  utterances: z.array(utteranceSchema).optional(),
  confidence: probability.nullable(),
  audio_duration: z.number().int().nonnegative().nullable(),
  audio_channels: z.number().int().positive().optional(),
  language_code: z.string(),
  language_confidence: probability.nullable(),
  speech_model_used: z.string(),
  auto_highlights_result: autoHighlightsResultSchema.optional(),
  content_safety_labels: contentSafetyLabelsSchema.optional(),
  iab_categories_result: iabCategoriesResultSchema.optional(),
  entities: z.array(entitySchema).optional(),
  sentiment_analysis_results: z.array(sentimentResultSchema).optional(),
  chapters: z.array(chapterSchema).optional(),
  summary: z.string().optional(),
  translated_texts: translatedTextsSchema.optional(),
  speech_understanding: z.record(z.string(), z.unknown()).optional(),
  unredacted_text: z.string().optional(),
  unredacted_words: z.array(wordSchema).optional(),
  unredacted_utterances: z.array(utteranceSchema).optional(),
});

const nullableBoolean = z.boolean().nullable();

/** GET /v2/transcript/{id}: additional properties are not allowed. */
export const transcriptSchema = z.strictObject({
  id: z.string(),
  status: z.enum(['queued', 'processing', 'completed', 'error']),
  error: z.string().optional(),
  audio_url: z.string(),
  text: z.string().nullable().optional(),
  words: z.array(wordSchema).nullable().optional(),
  utterances: z.array(utteranceSchema).nullable().optional(),
  confidence: probability.nullable().optional(),
  audio_duration: z.number().int().nullable().optional(),
  audio_channels: z.number().int().optional(),
  audio_start_from: z.number().int().nullable().optional(),
  audio_end_at: z.number().int().nullable().optional(),
  language_code: z.string().optional(),
  language_codes: z.array(z.string()).nullable().optional(),
  language_confidence: probability.nullable(),
  language_confidence_threshold: probability.nullable(),
  language_detection: nullableBoolean.optional(),
  language_detection_options: z
    .strictObject({
      expected_languages: z.array(z.string()).optional(),
      fallback_language: z.string().optional(),
      code_switching: z.boolean().optional(),
      code_switching_confidence_threshold: probability.optional(),
      localization: z.array(z.string()).optional(),
    })
    .optional(),
  punctuate: nullableBoolean.optional(),
  format_text: nullableBoolean.optional(),
  multichannel: nullableBoolean.optional(),
  filter_profanity: nullableBoolean.optional(),
  disfluencies: nullableBoolean.optional(),
  speech_models: z.array(z.string()).nullable().optional(),
  speech_model_used: z.string().optional(),
  speech_model: z.string().nullable(),
  language_model: z.string(),
  acoustic_model: z.string(),
  prompt: z.string().optional(),
  keyterms_prompt: z.array(z.string()).optional(),
  domain: z.string().nullable().optional(),
  custom_spelling: z
    .array(z.object({ from: z.array(z.string()), to: z.string() }))
    .nullable()
    .optional(),
  speaker_labels: nullableBoolean.optional(),
  speakers_expected: z.number().int().nullable().optional(),
  auto_highlights: z.boolean(),
  auto_highlights_result: autoHighlightsResultSchema.nullable().optional(),
  content_safety: nullableBoolean.optional(),
  content_safety_labels: contentSafetyLabelsSchema.nullable().optional(),
  iab_categories: nullableBoolean.optional(),
  iab_categories_result: iabCategoriesResultSchema.nullable().optional(),
  entity_detection: nullableBoolean.optional(),
  entities: z.array(entitySchema).nullable().optional(),
  sentiment_analysis: nullableBoolean.optional(),
  sentiment_analysis_results: z.array(sentimentResultSchema).nullable().optional(),
  auto_chapters: nullableBoolean.optional(),
  chapters: z.array(chapterSchema).nullable().optional(),
  summarization: z.boolean(),
  summary_type: z.string().nullable().optional(),
  summary_model: z.string().nullable().optional(),
  summary: z.string().nullable().optional(),
  custom_topics: nullableBoolean.optional(),
  topics: z.array(z.string()).optional(),
  speech_threshold: z.number().nullable().optional(),
  remove_audio_tags: z.unknown().optional(),
  throttled: z.unknown().optional(),
  redact_pii: z.boolean(),
  redact_pii_audio: nullableBoolean.optional(),
  redact_pii_audio_options: z
    .strictObject({
      return_redacted_no_speech_audio: z.boolean().optional(),
      override_audio_redaction_method: z.literal('silence').optional(),
    })
    .optional(),
  redact_pii_audio_quality: z.string().nullable().optional(),
  redact_pii_policies: z.array(z.string()).nullable().optional(),
  redact_pii_sub: z.enum(['entity_name', 'hash']).optional(),
  redact_pii_return_unredacted: nullableBoolean.optional(),
  /** Listed by the spec under redact_pii_return_unredacted. */
  unredacted_text: z.string().optional(),
  unredacted_words: z.array(wordSchema).optional(),
  unredacted_utterances: z.array(utteranceSchema).optional(),
  webhook_url: z.string().optional(),
  webhook_status_code: z.number().int().optional(),
  webhook_auth: z.boolean(),
  webhook_auth_header_name: z.string().optional(),
  speech_understanding: z.record(z.string(), z.unknown()).optional(),
  /** Real service, with translation. */
  translated_texts: translatedTextsSchema.optional(),
});

export const sentencesResponseSchema = z.strictObject({
  sentences: z.array(sentenceSchema),
  id: z.string(),
  confidence: probability,
  audio_duration: z.number(),
});

export const paragraphsResponseSchema = z.strictObject({
  paragraphs: z.array(paragraphSchema),
  id: z.string(),
  confidence: probability,
  audio_duration: z.number(),
});
