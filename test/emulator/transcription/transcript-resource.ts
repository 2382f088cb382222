import type { EmulatorApp } from '../types';
import { DEFAULT_SPEECH_MODELS, speechModelsInUse } from './request-validation';
import type { TranscriptRecord } from './transcription-state';

/**
 * The transcript resource exactly as the spec's Transcript table shapes it. The rule for a
 * field that does not apply (yet): a field the table types as nullable is null, any other
 * field is left out (text and words until completed, prompt when none was sent...). Request
 * settings are echoed with the defaults the real service reports.
 */

/** What the real service reports for the deprecated model fields. */
const DEPRECATED_MODEL_NAME = 'assemblyai_default';
/** The real service answers a disabled content moderation / topic detection with this, not null. */
const unavailable = (): Record<string, unknown> => ({ status: 'unavailable', results: [], summary: {} });

/** What a deleted transcript shows in place of its content (the real service's wording). */
export const DELETED_TEXT = 'Deleted by user.';
const DELETED_AUDIO_URL = 'http://deleted_by_user';

export function transcriptResource(record: TranscriptRecord): Record<string, unknown> {
  const params = record.params;
  const completed = record.status === 'completed';
  const fields = completed ? (record.fields ?? {}) : {};
  /** An analysis result: the engine's output once completed, else null. */
  const analysis = (enabled: boolean | undefined, name: string, whenMissing: unknown = null): unknown =>
    enabled && completed ? (fields[name] ?? whenMissing) : null;

  const resource: Record<string, unknown> = { id: record.id, status: record.status };
  if (record.status === 'error') resource.error = record.error;
  resource.audio_url = record.deleted ? DELETED_AUDIO_URL : params.audio_url;
  if (completed) {
    resource.text = fields.text ?? '';
    resource.words = fields.words ?? [];
    if (params.speaker_labels || params.multichannel) resource.utterances = fields.utterances ?? [];
  }
  resource.confidence = fields.confidence ?? null;
  resource.audio_duration = fields.audio_duration ?? null;
  if (params.multichannel && fields.audio_channels !== undefined)
    resource.audio_channels = fields.audio_channels;
  resource.audio_start_from = params.audio_start_from ?? null;
  resource.audio_end_at = params.audio_end_at ?? null;

  // Without detection the language is the requested one, or the service default en_us;
  // with detection it is known only once completed.
  const languageCode =
    fields.language_code ?? params.language_code ?? (params.language_detection ? undefined : 'en_us');
  if (languageCode !== undefined) resource.language_code = languageCode;
  resource.language_codes = fields.language_codes ?? params.language_codes ?? null;
  resource.language_confidence = fields.language_confidence ?? null;
  resource.language_confidence_threshold = params.language_confidence_threshold ?? null;
  resource.language_detection = params.language_detection ?? false;
  if (params.language_detection_options) {
    resource.language_detection_options = {
      expected_languages: ['all'],
      fallback_language: 'auto',
      code_switching: false,
      code_switching_confidence_threshold: 0.3,
      ...params.language_detection_options,
    };
  }

  resource.punctuate = params.punctuate ?? true;
  resource.format_text = params.format_text ?? true;
  resource.multichannel = params.multichannel ?? false;
  resource.filter_profanity = params.filter_profanity ?? false;
  resource.disfluencies = params.disfluencies ?? false;

  resource.speech_models = params.speech_models ?? DEFAULT_SPEECH_MODELS;
  if (completed) resource.speech_model_used = fields.speech_model_used ?? speechModelsInUse(params)[0];
  resource.speech_model = params.speech_model ?? null;
  resource.language_model = DEPRECATED_MODEL_NAME;
  resource.acoustic_model = DEPRECATED_MODEL_NAME;
  if (params.prompt !== undefined) resource.prompt = params.prompt;
  if (params.keyterms_prompt !== undefined) resource.keyterms_prompt = params.keyterms_prompt;
  resource.domain = params.domain ?? null;
  resource.custom_spelling = params.custom_spelling ?? null;

  resource.speaker_labels = params.speaker_labels ?? false;
  resource.speakers_expected = params.speakers_expected ?? null;
  resource.auto_highlights = params.auto_highlights ?? false;
  resource.auto_highlights_result = analysis(params.auto_highlights, 'auto_highlights_result');
  resource.content_safety = params.content_safety ?? false;
  resource.content_safety_labels = params.content_safety
    ? analysis(true, 'content_safety_labels')
    : { ...unavailable(), severity_score_summary: {} };
  resource.iab_categories = params.iab_categories ?? false;
  resource.iab_categories_result = params.iab_categories
    ? analysis(true, 'iab_categories_result')
    : unavailable();
  resource.entity_detection = params.entity_detection ?? false;
  resource.entities = analysis(params.entity_detection, 'entities', []);
  resource.sentiment_analysis = params.sentiment_analysis ?? false;
  resource.sentiment_analysis_results = analysis(params.sentiment_analysis, 'sentiment_analysis_results', []);
  resource.auto_chapters = params.auto_chapters ?? false;
  resource.chapters = analysis(params.auto_chapters, 'chapters', []);
  resource.summarization = params.summarization ?? false;
  resource.summary_type = params.summarization ? (params.summary_type ?? 'bullets') : null;
  resource.summary_model = params.summarization ? (params.summary_model ?? 'informative') : null;
  resource.summary = analysis(params.summarization, 'summary');
  resource.custom_topics = params.custom_topics ?? false;
  resource.topics = params.topics ?? [];
  if (params.speech_threshold != null) resource.speech_threshold = params.speech_threshold;
  resource.remove_audio_tags = params.remove_audio_tags ?? null;
  // The emulator never throttles.
  resource.throttled = false;

  resource.redact_pii = params.redact_pii ?? false;
  resource.redact_pii_audio = params.redact_pii_audio ?? false;
  if (params.redact_pii_audio_options) {
    resource.redact_pii_audio_options = {
      return_redacted_no_speech_audio: false,
      ...params.redact_pii_audio_options,
    };
  }
  resource.redact_pii_audio_quality = params.redact_pii_audio
    ? (params.redact_pii_audio_quality ?? 'mp3')
    : null;
  resource.redact_pii_policies = params.redact_pii_policies ?? null;
  if (params.redact_pii) resource.redact_pii_sub = params.redact_pii_sub ?? 'hash';
  resource.redact_pii_return_unredacted = params.redact_pii_return_unredacted ?? false;
  if (completed && params.redact_pii && params.redact_pii_return_unredacted) {
    // Named by the spec under redact_pii_return_unredacted.
    for (const name of ['unredacted_text', 'unredacted_words', 'unredacted_utterances']) {
      if (fields[name] !== undefined) resource[name] = fields[name];
    }
  }

  if (params.webhook_url !== undefined) resource.webhook_url = params.webhook_url;
  if (record.webhookStatusCode !== undefined) resource.webhook_status_code = record.webhookStatusCode;
  resource.webhook_auth = Boolean(
    params.webhook_auth_header_name && params.webhook_auth_header_value != null,
  );
  if (params.webhook_auth_header_name) resource.webhook_auth_header_name = params.webhook_auth_header_name;
  if (params.speech_understanding) {
    resource.speech_understanding = fields.speech_understanding ?? params.speech_understanding;
    // Not in the spec's table, but where the real service documents the translations of the text.
    if (fields.translated_texts !== undefined) resource.translated_texts = fields.translated_texts;
  }
  return resource;
}

/** The real service's list timestamps: ISO 8601 in UTC without a zone suffix, microseconds. */
export function listTimestamp(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, -1)}000`;
}

export function transcriptListItem(app: EmulatorApp, record: TranscriptRecord): Record<string, unknown> {
  return {
    id: record.id,
    resource_url: `${app.baseUrl(record.region)}/v2/transcript/${record.id}`,
    status: record.status,
    created: listTimestamp(record.createdAt),
    completed: record.completedAt === undefined ? null : listTimestamp(record.completedAt),
    audio_url: record.deleted ? DELETED_AUDIO_URL : record.params.audio_url,
    error: record.error ?? null,
  };
}
