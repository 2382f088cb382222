import { z } from 'zod';
import { languageCodeProblem } from './language-codes';

/**
 * The request parameters of POST /v2/transcript, with the limits of the service's spec,
 * checked before anything is sent. The renderer's form and the main process use this one
 * implementation, so the user hears about a mistake while typing.
 * Every message names the parameter as the form labels it and as the service spells it.
 */

export const speechModels = ['universal-3-5-pro', 'universal-2'] as const;
export const defaultSpeechModels: SpeechModel[] = ['universal-3-5-pro', 'universal-2'];
export type SpeechModel = (typeof speechModels)[number];

export const limits = {
  keytermsPerModel: { 'universal-2': 200, 'universal-3-5-pro': 1000 } satisfies Record<SpeechModel, number>,
  wordsPerKeyterm: 6,
  promptWords: 1500,
  customSpellingFromWords: 5,
  contentSafetyConfidence: { min: 25, max: 100 },
} as const;

const localizations = ['en_au', 'en_uk'] as const;

export function wordCount(text: string): number {
  return text.trim() === '' ? 0 : text.trim().split(/\s+/).length;
}

const languageDetectionOptionsSchema = z
  .object({
    expected_languages: z.array(z.string().min(1)).optional(),
    fallback_language: z.string().min(1).optional(),
    code_switching: z.boolean().optional(),
    code_switching_confidence_threshold: z
      .number()
      .min(0, 'code_switching_confidence_threshold must be between 0 and 1')
      .max(1, 'code_switching_confidence_threshold must be between 0 and 1')
      .optional(),
    localization: z.array(z.string()).optional(),
  })
  .strict();

const customSpellingSchema = z
  .object({
    from: z.array(z.string().min(1, 'custom_spelling: a "from" phrase cannot be empty')).min(1),
    to: z.string().min(1, 'custom_spelling: "to" cannot be empty'),
  })
  .strict();

const translationSchema = z
  .object({
    target_languages: z.array(z.string().min(1)).min(1, 'translation needs at least one target language'),
    formal: z.boolean().optional(),
    match_original_utterance: z.boolean().optional(),
  })
  .strict();

const baseSchema = z
  .object({
    audio_url: z.url({ message: 'audio_url must be a web address (http or https)' }).optional(),
    audio_start_from: z.number().int().min(0, 'audio_start_from must be 0 or more milliseconds').optional(),
    audio_end_at: z.number().int().min(0, 'audio_end_at must be 0 or more milliseconds').optional(),
    language_code: z.string().min(1).optional(),
    language_codes: z.array(z.string().min(1)).optional(),
    language_detection: z.boolean().optional(),
    language_confidence_threshold: z
      .number()
      .min(0, 'language_confidence_threshold must be between 0 and 1')
      .max(1, 'language_confidence_threshold must be between 0 and 1')
      .optional(),
    language_detection_options: languageDetectionOptionsSchema.optional(),
    speech_models: z
      .array(z.enum(speechModels, { message: 'speech_models: choose universal-3-5-pro or universal-2' }))
      .min(1)
      .optional(),
    punctuate: z.boolean().optional(),
    format_text: z.boolean().optional(),
    multichannel: z.boolean().optional(),
    disfluencies: z.boolean().optional(),
    filter_profanity: z.boolean().optional(),
    custom_spelling: z.array(customSpellingSchema).optional(),
    keyterms_prompt: z.array(z.string().min(1, 'keyterms_prompt: a key term cannot be empty')).optional(),
    prompt: z.string().optional(),
    domain: z.string().nullable().optional(),
    webhook_url: z.url({ message: 'webhook_url must be a web address (http or https)' }).optional(),
    webhook_auth_header_name: z.string().min(1).optional(),
    webhook_auth_header_value: z.string().min(1).optional(),
    auto_highlights: z.boolean().optional(),
    content_safety: z.boolean().optional(),
    content_safety_confidence: z
      .number()
      .int('content_safety_confidence must be a whole number')
      .min(limits.contentSafetyConfidence.min, 'content_safety_confidence must be between 25 and 100')
      .max(limits.contentSafetyConfidence.max, 'content_safety_confidence must be between 25 and 100')
      .optional(),
    iab_categories: z.boolean().optional(),
    entity_detection: z.boolean().optional(),
    sentiment_analysis: z.boolean().optional(),
    speaker_labels: z.boolean().optional(),
    speakers_expected: z.number().int().min(1, 'speakers_expected must be at least 1').optional(),
    auto_chapters: z.boolean().optional(),
    summarization: z.boolean().optional(),
    summary_model: z.enum(['informative', 'conversational', 'catchy']).optional(),
    summary_type: z.enum(['bullets', 'bullets_verbose', 'gist', 'headline', 'paragraph']).optional(),
    custom_topics: z.boolean().optional(),
    topics: z.array(z.string().min(1)).optional(),
    speech_threshold: z
      .number()
      .min(0, 'speech_threshold must be between 0 and 1')
      .max(1, 'speech_threshold must be between 0 and 1')
      .optional(),
    redact_pii: z.boolean().optional(),
    redact_pii_audio: z.boolean().optional(),
    redact_pii_audio_options: z
      .object({
        return_redacted_no_speech_audio: z.boolean().optional(),
        override_audio_redaction_method: z.enum(['silence']).optional(),
      })
      .strict()
      .optional(),
    redact_pii_audio_quality: z.enum(['mp3', 'wav']).optional(),
    redact_pii_policies: z.array(z.string().min(1)).optional(),
    redact_pii_sub: z
      .enum(['entity_name', 'hash'], { message: 'redact_pii_sub must be entity_name or hash' })
      .optional(),
    redact_pii_return_unredacted: z.boolean().optional(),
    speech_understanding: z
      .object({ request: z.object({ translation: translationSchema }).strict() })
      .strict()
      .optional(),
  })
  .strict();

export type TranscriptionOptions = z.infer<typeof baseSchema>;

function effectiveModels(options: TranscriptionOptions): SpeechModel[] {
  return options.speech_models ?? defaultSpeechModels;
}

/** The rules that tie parameters together, each a message naming what to fix. */
function crossFieldIssues(options: TranscriptionOptions): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const add = (path: string, message: string): void => void issues.push({ path, message });
  const models = effectiveModels(options);

  if (options.keyterms_prompt) {
    const limit = Math.min(...models.map((model) => limits.keytermsPerModel[model]));
    if (options.keyterms_prompt.length > limit) {
      add(
        'keyterms_prompt',
        `keyterms_prompt allows at most ${limit} key terms with ${models.join(', ')} (you have ${options.keyterms_prompt.length})`,
      );
    }
    const long = options.keyterms_prompt.find((term) => wordCount(term) > limits.wordsPerKeyterm);
    if (long)
      add('keyterms_prompt', `keyterms_prompt: "${long}" has more than ${limits.wordsPerKeyterm} words`);
  }
  if (options.prompt !== undefined) {
    if (!models.includes('universal-3-5-pro'))
      add('prompt', 'prompt works only with the universal-3-5-pro speech model');
    const words = wordCount(options.prompt);
    if (words > limits.promptWords)
      add('prompt', `prompt allows at most ${limits.promptWords} words (you have ${words})`);
  }
  for (const item of options.custom_spelling ?? []) {
    if (/\s/.test(item.to.trim()))
      add('custom_spelling', `custom_spelling: "${item.to}" must be a single word`);
    const long = item.from.find((phrase) => wordCount(phrase) > limits.customSpellingFromWords);
    if (long)
      add(
        'custom_spelling',
        `custom_spelling: "${long}" has more than ${limits.customSpellingFromWords} words`,
      );
  }
  for (const [path, codes] of [
    ['language_code', options.language_code === undefined ? [] : [options.language_code]],
    ['language_codes', options.language_codes ?? []],
    [
      'language_detection_options.expected_languages',
      options.language_detection_options?.expected_languages ?? [],
    ],
  ] as const) {
    const problem = codes.map((code) => languageCodeProblem(path.split('.').at(-1)!, code)).find(Boolean);
    if (problem) add(path, problem);
  }
  const fallback = options.language_detection_options?.fallback_language;
  // The real service also accepts "auto" here (its default: the detected language is kept).
  if (fallback !== undefined && fallback !== 'auto') {
    const problem = languageCodeProblem('fallback_language', fallback);
    if (problem) add('language_detection_options.fallback_language', problem);
  }
  if (options.language_codes && !options.language_codes.includes('en')) {
    add('language_codes', 'language_codes must include "en" for code switching');
  }
  const localization = options.language_detection_options?.localization ?? [];
  for (const code of localization) {
    if (!(localizations as readonly string[]).includes(code)) {
      add(
        'language_detection_options.localization',
        `localization: "${code}" is not supported; use en_au or en_uk (not a base or default-region code such as en or en_us)`,
      );
    }
  }
  const bases = localization.map((code) => code.split('_')[0]);
  if (new Set(bases).size !== bases.length) {
    add('language_detection_options.localization', 'localization allows one locale per language');
  }
  if (options.redact_pii_audio_options && options.redact_pii_audio !== true) {
    add('redact_pii_audio_options', 'redact_pii_audio_options needs redact_pii_audio turned on');
  }
  if (
    (options.redact_pii_audio || options.redact_pii_sub || options.redact_pii_policies) &&
    options.redact_pii !== true
  ) {
    add('redact_pii', 'PII redaction options need redact_pii turned on');
  }
  if (options.redact_pii && (options.redact_pii_policies?.length ?? 0) === 0) {
    add('redact_pii_policies', 'redact_pii needs at least one policy in redact_pii_policies');
  }
  if (
    options.audio_start_from !== undefined &&
    options.audio_end_at !== undefined &&
    options.audio_end_at <= options.audio_start_from
  ) {
    add('audio_end_at', 'audio_end_at must be later than audio_start_from');
  }
  if ((options.auto_chapters || options.summarization) && !models.includes('universal-2')) {
    add(
      options.auto_chapters ? 'auto_chapters' : 'summarization',
      'chapters and summaries work only with the universal-2 speech model (they are deprecated)',
    );
  }
  if (options.auto_chapters && options.summarization) {
    add('summarization', 'auto_chapters and summarization cannot be used together');
  }
  if ((options.summary_model || options.summary_type) && !options.summarization) {
    add('summarization', 'summary_model and summary_type need summarization turned on');
  }
  if (options.webhook_auth_header_value && !options.webhook_auth_header_name) {
    add('webhook_auth_header_name', 'webhook_auth_header_value needs webhook_auth_header_name');
  }
  if (options.webhook_auth_header_name && !options.webhook_url) {
    add('webhook_url', 'a webhook auth header needs webhook_url');
  }
  if (options.speakers_expected !== undefined && !options.speaker_labels) {
    add('speakers_expected', 'speakers_expected needs speaker_labels turned on');
  }
  if (options.language_detection && options.language_code) {
    add('language_code', 'choose either a language_code or automatic language_detection, not both');
  }
  if (options.multichannel && options.speaker_labels) {
    add(
      'speaker_labels',
      'multichannel and speaker_labels cannot be used together: each channel is already a speaker',
    );
  }
  if (options.topics && !options.custom_topics) add('custom_topics', 'topics needs custom_topics turned on');
  return issues;
}

export const transcriptionOptionsSchema = baseSchema.superRefine((options, ctx) => {
  for (const issue of crossFieldIssues(options)) {
    ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
  }
});

export interface OptionProblem {
  path: string;
  message: string;
}

/** Every problem with a set of options, for inline messages next to each field. */
export function checkTranscriptionOptions(
  options: unknown,
): { ok: true; options: TranscriptionOptions } | { ok: false; problems: OptionProblem[] } {
  const parsed = transcriptionOptionsSchema.safeParse(options);
  if (parsed.success) return { ok: true, options: parsed.data };
  const problems = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(options)',
    message:
      issue.code === 'unrecognized_keys'
        ? `Unknown option${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
        : describe(issue),
  }));
  // zod skips the cross-field rules when a field is already wrong; run them anyway so the
  // form can show every problem at once, on whatever parts of the input have the right shape.
  const reported = new Set(problems.map((problem) => problem.path));
  try {
    for (const issue of crossFieldIssues(options as TranscriptionOptions)) {
      if (!reported.has(issue.path)) problems.push(issue);
    }
  } catch {
    // Input too malformed for the cross-field rules: the shape problems above say enough.
  }
  return { ok: false, problems };
}

function describe(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  // Custom messages already name the parameter; zod's generic ones get the name prepended.
  if (path && issue.message.includes(path.split('.').at(-1) ?? path)) return issue.message;
  return path ? `${path}: ${issue.message}` : issue.message;
}
