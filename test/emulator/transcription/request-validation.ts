import { z } from 'zod';
import { languageCodes } from '../../../src/shared/transcription/language-codes';

/**
 * Validation of the POST /v2/transcript body: every parameter of the spec's body table with
 * its type and limits. The real service answers a bad request with 400 and
 * `{"error": "<message naming the parameter>"}` (its documented example: "format_text must be
 * a Boolean"), so every message here starts with the parameter's name.
 */

const SPEECH_MODELS = ['universal-3-5-pro', 'universal-2'] as const;
export type SpeechModelName = (typeof SPEECH_MODELS)[number];
/** What the service uses when the request names no speech_models. */
export const DEFAULT_SPEECH_MODELS: SpeechModelName[] = ['universal-3-5-pro', 'universal-2'];

/** Phrases keyterms_prompt may hold, per model (spec's Limits table). */
const KEYTERMS_LIMIT: Record<SpeechModelName, number> = {
  'universal-3-5-pro': 1000,
  'universal-2': 200,
};
const KEYTERM_MAX_WORDS = 6;
const PROMPT_MAX_WORDS = 1500;
const CUSTOM_SPELLING_FROM_MAX_WORDS = 5;

/** The spec leaves the value lists open; these are the ones the real service documents. */
const PII_POLICIES = [
  'account_number',
  'banking_information',
  'blood_type',
  'credit_card_cvv',
  'credit_card_expiration',
  'credit_card_number',
  'date',
  'date_interval',
  'date_of_birth',
  'drivers_license',
  'drug',
  'duration',
  'email_address',
  'event',
  'filename',
  'gender_sexuality',
  'healthcare_number',
  'injury',
  'ip_address',
  'language',
  'location',
  'marital_status',
  'medical_condition',
  'medical_process',
  'money_amount',
  'nationality',
  'number_sequence',
  'occupation',
  'organization',
  'passport_number',
  'password',
  'person_age',
  'person_name',
  'phone_number',
  'physical_attribute',
  'political_affiliation',
  'religion',
  'statistics',
  'time',
  'url',
  'us_social_security_number',
  'username',
  'vehicle_id',
  'zodiac_sign',
] as const;
const SUMMARY_TYPES = ['bullets', 'bullets_verbose', 'gist', 'headline', 'paragraph'] as const;
const SUMMARY_MODELS = ['informative', 'conversational', 'catchy'] as const;
const REDACTION_AUDIO_QUALITIES = ['mp3', 'wav'] as const;
const LOCALIZATIONS = ['en_au', 'en_uk'] as const;

function wordCount(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const httpUrl = z.string().refine(isHttpUrl, { message: 'must be an http(s) URL' });
const fraction = z.number().min(0).max(1);

const customSpellingSchema = z.strictObject({
  from: z
    .array(
      z.string().refine((phrase) => wordCount(phrase) <= CUSTOM_SPELLING_FROM_MAX_WORDS, {
        message: `must have at most ${CUSTOM_SPELLING_FROM_MAX_WORDS} words`,
      }),
    )
    .min(1),
  to: z.string().refine((word) => wordCount(word) === 1, { message: 'must be a single word' }),
});

const localizationSchema = z.array(z.string()).superRefine((locales, ctx) => {
  const bases = new Set<string>();
  for (const [index, locale] of locales.entries()) {
    const base = locale.split('_')[0] ?? locale;
    if (locale === base || locale === `${base}_us`) {
      ctx.addIssue({
        code: 'custom',
        path: [index],
        message: `"${locale}" is a base or default-region code; use a regional variant such as en_au or en_uk`,
      });
    } else if (!(LOCALIZATIONS as readonly string[]).includes(locale)) {
      ctx.addIssue({
        code: 'custom',
        path: [index],
        message: `"${locale}" is not supported; supported values are ${LOCALIZATIONS.join(', ')}`,
      });
    } else if (bases.has(base)) {
      ctx.addIssue({
        code: 'custom',
        path: [index],
        message: `allows at most one locale per base language ("${base}")`,
      });
    }
    bases.add(base);
  }
});

const languageDetectionOptionsSchema = z.strictObject({
  expected_languages: z.array(z.string()).optional(),
  fallback_language: z.string().optional(),
  code_switching: z.boolean().optional(),
  code_switching_confidence_threshold: fraction.optional(),
  localization: localizationSchema.optional(),
});

const redactPiiAudioOptionsSchema = z.strictObject({
  return_redacted_no_speech_audio: z.boolean().optional(),
  override_audio_redaction_method: z.enum(['silence']).optional(),
});

const speechUnderstandingSchema = z.strictObject({
  request: z
    .strictObject({
      translation: z
        .strictObject({
          target_languages: z.array(z.string()).min(1),
          formal: z.boolean().optional(),
          match_original_utterance: z.boolean().optional(),
        })
        .optional(),
    })
    .optional(),
});

/**
 * The body table of the spec. Unknown parameters are rejected: the real service's schema
 * declares `additionalProperties: false` for the transcript parameters.
 */
export const transcriptRequestSchema = z.strictObject({
  audio_url: httpUrl,
  audio_start_from: z.int().min(0).optional(),
  audio_end_at: z.int().min(0).optional(),
  // The spec leaves the list "not shown"; the real service refuses a code outside its
  // documented list, so the emulator does too.
  language_code: z.enum(languageCodes).nullable().optional(),
  language_codes: z
    .array(z.enum(languageCodes))
    .refine((codes) => codes.includes('en'), { message: 'must contain "en"' })
    .nullable()
    .optional(),
  language_detection: z.boolean().optional(),
  language_confidence_threshold: fraction.optional(),
  language_detection_options: languageDetectionOptionsSchema.nullable().optional(),
  speech_models: z.array(z.enum(SPEECH_MODELS)).min(1).nullable().optional(),
  speech_model: z.string().nullable().optional(),
  punctuate: z.boolean().optional(),
  format_text: z.boolean().optional(),
  multichannel: z.boolean().optional(),
  disfluencies: z.boolean().optional(),
  filter_profanity: z.boolean().optional(),
  custom_spelling: z.array(customSpellingSchema).optional(),
  keyterms_prompt: z
    .array(
      z.string().refine((phrase) => wordCount(phrase) <= KEYTERM_MAX_WORDS, {
        message: `must have at most ${KEYTERM_MAX_WORDS} words`,
      }),
    )
    .optional(),
  prompt: z
    .string()
    .refine((text) => wordCount(text) <= PROMPT_MAX_WORDS, {
      message: `must have at most ${PROMPT_MAX_WORDS} words`,
    })
    .optional(),
  domain: z.enum(['medical-v1']).nullable().optional(),
  webhook_url: httpUrl.optional(),
  webhook_auth_header_name: z.string().min(1).nullable().optional(),
  webhook_auth_header_value: z.string().nullable().optional(),
  auto_highlights: z.boolean().optional(),
  content_safety: z.boolean().optional(),
  content_safety_confidence: z.int().min(25).max(100).optional(),
  iab_categories: z.boolean().optional(),
  entity_detection: z.boolean().optional(),
  sentiment_analysis: z.boolean().optional(),
  speaker_labels: z.boolean().optional(),
  speakers_expected: z.int().min(1).nullable().optional(),
  auto_chapters: z.boolean().optional(),
  summarization: z.boolean().optional(),
  summary_model: z.enum(SUMMARY_MODELS).optional(),
  summary_type: z.enum(SUMMARY_TYPES).optional(),
  custom_topics: z.boolean().optional(),
  topics: z.array(z.string()).optional(),
  speech_threshold: fraction.nullable().optional(),
  // The real service documents a single value: "all" removes bracketed audio tags.
  remove_audio_tags: z.enum(['all']).nullable().optional(),
  redact_pii: z.boolean().optional(),
  redact_pii_audio: z.boolean().optional(),
  redact_pii_audio_options: redactPiiAudioOptionsSchema.optional(),
  redact_pii_audio_quality: z.enum(REDACTION_AUDIO_QUALITIES).nullable().optional(),
  redact_pii_policies: z.array(z.enum(PII_POLICIES)).optional(),
  redact_pii_sub: z.enum(['entity_name', 'hash']).nullable().optional(),
  redact_pii_return_unredacted: z.boolean().optional(),
  speech_understanding: speechUnderstandingSchema.optional(),
});

export type TranscriptParams = z.infer<typeof transcriptRequestSchema>;

/** The models a request may be routed to (spec default when it names none). */
export function speechModelsInUse(params: Pick<TranscriptParams, 'speech_models'>): SpeechModelName[] {
  return params.speech_models ?? DEFAULT_SPEECH_MODELS;
}

/**
 * Rules that relate parameters to each other. Each returns the error message, or undefined
 * when the request satisfies it. Where a feature or limit depends on the model, the service
 * may route the file to any model in speech_models, so: a model-specific feature needs its
 * model in the list, and a per-model limit is the strictest of the listed models.
 */
export const crossParameterRules: Record<string, (params: TranscriptParams) => string | undefined> = {
  keytermsWithinModelLimit(params) {
    if (!params.keyterms_prompt) return undefined;
    const models = speechModelsInUse(params);
    const limit = Math.min(...models.map((model) => KEYTERMS_LIMIT[model]));
    if (params.keyterms_prompt.length <= limit) return undefined;
    return `keyterms_prompt has ${params.keyterms_prompt.length} phrases; at most ${limit} are allowed with speech_models ${models.join(', ')}`;
  },
  promptNeedsUniversal3Pro(params) {
    if (params.prompt === undefined || speechModelsInUse(params).includes('universal-3-5-pro'))
      return undefined;
    return 'prompt is only supported with the universal-3-5-pro speech model; add it to speech_models';
  },
  chaptersNeedUniversal2(params) {
    if (!params.auto_chapters || speechModelsInUse(params).includes('universal-2')) return undefined;
    return 'auto_chapters is only supported with the universal-2 speech model; add it to speech_models';
  },
  summarizationNeedsUniversal2(params) {
    if (!params.summarization || speechModelsInUse(params).includes('universal-2')) return undefined;
    return 'summarization is only supported with the universal-2 speech model; add it to speech_models';
  },
  chaptersOrSummarization(params) {
    if (!(params.auto_chapters && params.summarization)) return undefined;
    return 'auto_chapters and summarization cannot both be enabled; choose one';
  },
  conversationalSummaryNeedsSpeakers(params) {
    if (!params.summarization || params.summary_model !== 'conversational') return undefined;
    if (params.speaker_labels || params.multichannel) return undefined;
    return 'summary_model "conversational" requires speaker_labels or multichannel';
  },
  audioSpanInOrder(params) {
    if (params.audio_start_from === undefined || params.audio_end_at === undefined) return undefined;
    if (params.audio_start_from < params.audio_end_at) return undefined;
    return 'audio_start_from must be less than audio_end_at';
  },
  redactPiiNeedsPolicies(params) {
    if (!params.redact_pii || (params.redact_pii_policies?.length ?? 0) > 0) return undefined;
    return 'redact_pii_policies must contain at least one policy when redact_pii is enabled';
  },
  redactedAudioNeedsRedaction(params) {
    if (!params.redact_pii_audio || params.redact_pii) return undefined;
    return 'redact_pii_audio requires redact_pii to be enabled';
  },
  redactedAudioOptionsNeedRedactedAudio(params) {
    if (params.redact_pii_audio_options === undefined || params.redact_pii_audio === true) return undefined;
    return 'redact_pii_audio_options requires redact_pii_audio to be true';
  },
  webhookAuthValueNeedsName(params) {
    if (params.webhook_auth_header_value == null || params.webhook_auth_header_name != null) return undefined;
    return 'webhook_auth_header_value requires webhook_auth_header_name';
  },
};

/**
 * The request as the service applies it, for the speech engine: where the real service documents
 * a default that changes the content, it is filled in so the text matches what the resource
 * reports (redact_pii_sub defaults to hash).
 */
export function withServiceDefaults(params: TranscriptParams): TranscriptParams {
  return params.redact_pii && params.redact_pii_sub == null ? { ...params, redact_pii_sub: 'hash' } : params;
}

export type ValidationResult = { ok: true; params: TranscriptParams } | { ok: false; error: string };

export function validateTranscriptRequest(body: unknown): ValidationResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: 'The request body must be a JSON object with at least audio_url' };
  }
  const parsed = transcriptRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: issue ? describeIssue(issue, body) : 'Invalid request body' };
  }
  for (const rule of Object.values(crossParameterRules)) {
    const error = rule(parsed.data);
    if (error) return { ok: false, error };
  }
  return { ok: true, params: parsed.data };
}

/** custom_spelling[0].from — the way the message names a nested parameter. */
function parameterName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const part of path)
    name += typeof part === 'number' ? `[${part}]` : `${name ? '.' : ''}${String(part)}`;
  return name;
}

function valueAt(body: object, path: readonly PropertyKey[]): unknown {
  let value: unknown = body;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

const TYPE_NAMES: Record<string, string> = {
  boolean: 'a Boolean',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  array: 'an array',
  object: 'an object',
};

function describeIssue(issue: z.core.$ZodIssue, body: object): string {
  const name = parameterName(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return `${parameterName([...issue.path, issue.keys[0] ?? ''])} is not a valid parameter`;
    case 'invalid_type':
      if (valueAt(body, issue.path) === undefined) return `${name} is required`;
      return `${name} must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `${name} must be one of: ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'array') return `${name} must contain at least ${String(issue.minimum)} item(s)`;
      if (issue.origin === 'string') return `${name} must not be empty`;
      return `${name} must be ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'array') return `${name} must contain at most ${String(issue.maximum)} item(s)`;
      return `${name} must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
    default:
      return `${name} ${issue.message}`;
  }
}
