import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { crossParameterRules, transcriptRequestSchema } from './request-validation';
import { Api } from './test-helpers';

let emulator: RunningEmulator;
let api: Api;
/** An upload URL that does not exist: accepted requests fail fast without touching the network. */
let audioUrl: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
  api = Api.of(emulator);
  audioUrl = `${emulator.url}/v2/upload/does-not-exist`;
});
afterAll(() => emulator.close());

const words = (count: number): string =>
  Array.from({ length: count }, (_, index) => `word${index}`).join(' ');
const phrases = (count: number): string[] => Array.from({ length: count }, (_, index) => `term ${index}`);

interface InvalidCase {
  name: string;
  body: Record<string, unknown>;
  /** The parameter the error message must name. */
  parameter: string;
  /** The cross-parameter rule that rejects it, when the schema alone accepts the body. */
  rule?: keyof typeof crossParameterRules;
}

const BOOLEAN_PARAMETERS = [
  'language_detection',
  'punctuate',
  'format_text',
  'multichannel',
  'disfluencies',
  'filter_profanity',
  'auto_highlights',
  'content_safety',
  'iab_categories',
  'entity_detection',
  'sentiment_analysis',
  'speaker_labels',
  'auto_chapters',
  'summarization',
  'custom_topics',
  'redact_pii',
  'redact_pii_audio',
  'redact_pii_return_unredacted',
];

const invalidCases: InvalidCase[] = [
  { name: 'audio_url missing', body: { audio_url: undefined }, parameter: 'audio_url' },
  { name: 'audio_url not a URL', body: { audio_url: 'just some words' }, parameter: 'audio_url' },
  { name: 'audio_url not http(s)', body: { audio_url: 'ftp://example.com/a.wav' }, parameter: 'audio_url' },
  { name: 'audio_url not a string', body: { audio_url: 42 }, parameter: 'audio_url' },
  { name: 'audio_start_from negative', body: { audio_start_from: -1 }, parameter: 'audio_start_from' },
  { name: 'audio_end_at not an integer', body: { audio_end_at: 1.5 }, parameter: 'audio_end_at' },
  {
    name: 'audio_start_from not before audio_end_at',
    body: { audio_start_from: 5000, audio_end_at: 5000 },
    parameter: 'audio_start_from',
    rule: 'audioSpanInOrder',
  },
  { name: 'language_code not a string', body: { language_code: 5 }, parameter: 'language_code' },
  { name: 'language_code a language name', body: { language_code: 'english' }, parameter: 'language_code' },
  {
    name: 'language_codes with a name',
    body: { language_codes: ['en', 'spanish'] },
    parameter: 'language_codes',
  },
  { name: 'language_codes without en', body: { language_codes: ['es', 'fr'] }, parameter: 'language_codes' },
  {
    name: 'language_confidence_threshold above 1',
    body: { language_confidence_threshold: 1.5 },
    parameter: 'language_confidence_threshold',
  },
  {
    name: 'language_confidence_threshold below 0',
    body: { language_confidence_threshold: -0.1 },
    parameter: 'language_confidence_threshold',
  },
  {
    name: 'language_detection_options extra property',
    body: { language_detection_options: { code_switching: true, shout: true } },
    parameter: 'language_detection_options.shout',
  },
  {
    name: 'code_switching_confidence_threshold above 1',
    body: { language_detection_options: { code_switching_confidence_threshold: 1.2 } },
    parameter: 'code_switching_confidence_threshold',
  },
  {
    name: 'localization with a base code',
    body: { language_detection_options: { localization: ['en'] } },
    parameter: 'localization',
  },
  {
    name: 'localization with the default region',
    body: { language_detection_options: { localization: ['en_us'] } },
    parameter: 'localization',
  },
  {
    name: 'localization with an unsupported locale',
    body: { language_detection_options: { localization: ['fr_ca'] } },
    parameter: 'localization',
  },
  {
    name: 'localization with two locales of one base language',
    body: { language_detection_options: { localization: ['en_au', 'en_uk'] } },
    parameter: 'localization',
  },
  {
    name: 'speech_models with an unknown model',
    body: { speech_models: ['nano'] },
    parameter: 'speech_models',
  },
  { name: 'speech_models empty', body: { speech_models: [] }, parameter: 'speech_models' },
  { name: 'speech_model not a string', body: { speech_model: 3 }, parameter: 'speech_model' },
  {
    name: 'custom_spelling not an array',
    body: { custom_spelling: { from: ['a'], to: 'b' } },
    parameter: 'custom_spelling',
  },
  {
    name: 'custom_spelling from phrase over 5 words',
    body: { custom_spelling: [{ from: [words(6)], to: 'Six' }] },
    parameter: 'custom_spelling[0].from[0]',
  },
  {
    name: 'custom_spelling to of two words',
    body: { custom_spelling: [{ from: ['dicarlo'], to: 'De Carlo' }] },
    parameter: 'custom_spelling[0].to',
  },
  {
    name: 'custom_spelling without from',
    body: { custom_spelling: [{ to: 'Decarlo' }] },
    parameter: 'custom_spelling[0].from',
  },
  {
    name: 'custom_spelling item with an extra property',
    body: { custom_spelling: [{ from: ['a'], to: 'b', case: 'upper' }] },
    parameter: 'custom_spelling[0].case',
  },
  {
    name: 'keyterms_prompt phrase over 6 words',
    body: { keyterms_prompt: [words(7)] },
    parameter: 'keyterms_prompt[0]',
  },
  {
    name: 'keyterms_prompt over 200 phrases with universal-2',
    body: { speech_models: ['universal-2'], keyterms_prompt: phrases(201) },
    parameter: 'keyterms_prompt',
    rule: 'keytermsWithinModelLimit',
  },
  {
    name: 'keyterms_prompt over 1000 phrases with universal-3-5-pro',
    body: { speech_models: ['universal-3-5-pro'], keyterms_prompt: phrases(1001) },
    parameter: 'keyterms_prompt',
    rule: 'keytermsWithinModelLimit',
  },
  {
    name: 'keyterms_prompt over 200 phrases with the default models (universal-2 among them)',
    body: { keyterms_prompt: phrases(201) },
    parameter: 'keyterms_prompt',
    rule: 'keytermsWithinModelLimit',
  },
  {
    name: 'prompt without universal-3-5-pro',
    body: { speech_models: ['universal-2'], prompt: 'Transcribe verbatim.' },
    parameter: 'prompt',
    rule: 'promptNeedsUniversal3Pro',
  },
  { name: 'prompt over 1,500 words', body: { prompt: words(1501) }, parameter: 'prompt' },
  { name: 'domain unknown', body: { domain: 'legal-v1' }, parameter: 'domain' },
  { name: 'webhook_url not a URL', body: { webhook_url: 'call me maybe' }, parameter: 'webhook_url' },
  {
    name: 'webhook_auth_header_value without a name',
    body: { webhook_url: 'http://127.0.0.1:9/hook', webhook_auth_header_value: 'secret' },
    parameter: 'webhook_auth_header_value',
    rule: 'webhookAuthValueNeedsName',
  },
  {
    name: 'webhook_auth_header_name not a string',
    body: { webhook_auth_header_name: 7 },
    parameter: 'webhook_auth_header_name',
  },
  {
    name: 'content_safety_confidence below 25',
    body: { content_safety_confidence: 24 },
    parameter: 'content_safety_confidence',
  },
  {
    name: 'content_safety_confidence above 100',
    body: { content_safety_confidence: 101 },
    parameter: 'content_safety_confidence',
  },
  {
    name: 'content_safety_confidence not an integer',
    body: { content_safety_confidence: 50.5 },
    parameter: 'content_safety_confidence',
  },
  { name: 'speakers_expected zero', body: { speakers_expected: 0 }, parameter: 'speakers_expected' },
  {
    name: 'speakers_expected not an integer',
    body: { speakers_expected: 2.5 },
    parameter: 'speakers_expected',
  },
  {
    name: 'auto_chapters without universal-2',
    body: { speech_models: ['universal-3-5-pro'], auto_chapters: true },
    parameter: 'auto_chapters',
    rule: 'chaptersNeedUniversal2',
  },
  {
    name: 'summarization without universal-2',
    body: { speech_models: ['universal-3-5-pro'], summarization: true },
    parameter: 'summarization',
    rule: 'summarizationNeedsUniversal2',
  },
  {
    name: 'auto_chapters together with summarization',
    body: { speech_models: ['universal-2'], auto_chapters: true, summarization: true },
    parameter: 'auto_chapters',
    rule: 'chaptersOrSummarization',
  },
  { name: 'summary_type unknown', body: { summary_type: 'essay' }, parameter: 'summary_type' },
  { name: 'summary_model unknown', body: { summary_model: 'poetic' }, parameter: 'summary_model' },
  {
    name: 'conversational summary without speakers',
    body: { speech_models: ['universal-2'], summarization: true, summary_model: 'conversational' },
    parameter: 'summary_model',
    rule: 'conversationalSummaryNeedsSpeakers',
  },
  { name: 'topics with a non-string', body: { custom_topics: true, topics: [1] }, parameter: 'topics[0]' },
  { name: 'speech_threshold above 1', body: { speech_threshold: 2 }, parameter: 'speech_threshold' },
  { name: 'remove_audio_tags unknown', body: { remove_audio_tags: 'some' }, parameter: 'remove_audio_tags' },
  {
    name: 'redact_pii without policies',
    body: { redact_pii: true },
    parameter: 'redact_pii_policies',
    rule: 'redactPiiNeedsPolicies',
  },
  {
    name: 'redact_pii_policies with an unknown policy',
    body: { redact_pii: true, redact_pii_policies: ['shoe_size'] },
    parameter: 'redact_pii_policies[0]',
  },
  {
    name: 'redact_pii_audio without redact_pii',
    body: { redact_pii_audio: true },
    parameter: 'redact_pii_audio',
    rule: 'redactedAudioNeedsRedaction',
  },
  {
    name: 'redact_pii_audio_options without redact_pii_audio',
    body: { redact_pii_audio_options: { return_redacted_no_speech_audio: true } },
    parameter: 'redact_pii_audio_options',
    rule: 'redactedAudioOptionsNeedRedactedAudio',
  },
  {
    name: 'override_audio_redaction_method unknown',
    body: {
      redact_pii: true,
      redact_pii_policies: ['person_name'],
      redact_pii_audio: true,
      redact_pii_audio_options: { override_audio_redaction_method: 'whistle' },
    },
    parameter: 'override_audio_redaction_method',
  },
  {
    name: 'redact_pii_audio_options extra property',
    body: {
      redact_pii: true,
      redact_pii_policies: ['person_name'],
      redact_pii_audio: true,
      redact_pii_audio_options: { pitch: 440 },
    },
    parameter: 'redact_pii_audio_options.pitch',
  },
  {
    name: 'redact_pii_audio_quality unknown',
    body: { redact_pii_audio_quality: 'flac' },
    parameter: 'redact_pii_audio_quality',
  },
  { name: 'redact_pii_sub unknown', body: { redact_pii_sub: 'mask' }, parameter: 'redact_pii_sub' },
  {
    name: 'translation without target languages',
    body: { speech_understanding: { request: { translation: { target_languages: [] } } } },
    parameter: 'speech_understanding.request.translation.target_languages',
  },
  {
    name: 'speech_understanding with an unknown feature',
    body: { speech_understanding: { request: { mind_reading: {} } } },
    parameter: 'speech_understanding.request.mind_reading',
  },
  { name: 'an unknown parameter', body: { loudness_boost: true }, parameter: 'loudness_boost' },
  ...BOOLEAN_PARAMETERS.map((parameter) => ({
    name: `${parameter} not a Boolean`,
    body: { [parameter]: 'yes' },
    parameter,
  })),
];

const validBodies: Record<string, Record<string, unknown>> = {
  'only audio_url': {},
  'nulls where the parameters allow them': {
    language_code: null,
    speech_model: null,
    domain: null,
    speakers_expected: null,
    redact_pii_sub: null,
    speech_threshold: null,
    webhook_auth_header_name: null,
    webhook_auth_header_value: null,
  },
  'prompt with the default models': { prompt: words(1500) },
  '1000 keyterms with universal-3-5-pro alone': {
    speech_models: ['universal-3-5-pro'],
    keyterms_prompt: phrases(1000),
  },
  '200 keyterms of 6 words with the default models': { keyterms_prompt: Array(200).fill(words(6)) },
  'summarization with universal-2': {
    speech_models: ['universal-2'],
    summarization: true,
    summary_model: 'conversational',
    summary_type: 'bullets_verbose',
    speaker_labels: true,
  },
  'auto_chapters with universal-2': { speech_models: ['universal-2'], auto_chapters: true },
  'every analysis and option': {
    audio_start_from: 1000,
    audio_end_at: 20000,
    language_detection: true,
    language_confidence_threshold: 0.4,
    language_codes: ['en', 'es'],
    language_detection_options: {
      expected_languages: ['en', 'es'],
      fallback_language: 'auto',
      code_switching: true,
      code_switching_confidence_threshold: 0.5,
      localization: ['en_uk'],
    },
    speech_models: ['universal-3-5-pro', 'universal-2'],
    punctuate: true,
    format_text: false,
    multichannel: false,
    disfluencies: true,
    filter_profanity: true,
    custom_spelling: [{ from: ['port hollow', 'porthollow'], to: 'PortHollow' }],
    keyterms_prompt: ['Northwind Ferries', 'Gull Island'],
    domain: 'medical-v1',
    webhook_url: 'http://127.0.0.1:9/hook?source=test',
    webhook_auth_header_name: 'X-Secret',
    webhook_auth_header_value: 'hush',
    auto_highlights: true,
    content_safety: true,
    content_safety_confidence: 25,
    iab_categories: true,
    entity_detection: true,
    sentiment_analysis: true,
    speaker_labels: true,
    speakers_expected: 2,
    custom_topics: true,
    topics: ['ferries'],
    speech_threshold: 0.2,
    remove_audio_tags: 'all',
    redact_pii: true,
    redact_pii_policies: ['person_name', 'phone_number'],
    redact_pii_sub: 'entity_name',
    redact_pii_audio: true,
    redact_pii_audio_quality: 'wav',
    redact_pii_audio_options: {
      return_redacted_no_speech_audio: true,
      override_audio_redaction_method: 'silence',
    },
    redact_pii_return_unredacted: true,
    speech_understanding: {
      request: {
        translation: { target_languages: ['es', 'de'], formal: true, match_original_utterance: false },
      },
    },
  },
};

function requestBody(overrides: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries({ audio_url: audioUrl, ...overrides }).filter(([, value]) => value !== undefined),
  );
}

describe('POST /v2/transcript validation', () => {
  it.each(invalidCases)('rejects $name with a 400 naming $parameter', async ({ body, parameter }) => {
    const response = await api.post('/v2/transcript', requestBody(body));
    expect(response.status).toBe(400);
    expect(Object.keys(response.json)).toEqual(['error']);
    expect(response.json.error).toContain(parameter);
  });

  it.each(Object.entries(validBodies))('accepts %s', async (_name, body) => {
    const response = await api.post('/v2/transcript', requestBody(body));
    expect(response.status, response.text).toBe(200);
    expect(response.json.status).toBe('queued');
  });

  it('rejects a body that is not JSON, or not an object', async () => {
    const notJson = await api.request('POST', '/v2/transcript', {
      bytes: new TextEncoder().encode('{audio_url:'),
    });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error).toEqual(expect.any(String));
    const array = await api.post('/v2/transcript', [{ audio_url: audioUrl }]);
    expect(array.status).toBe(400);
    expect(array.json.error).toContain('audio_url');
  });
});

describe('cross-parameter rules, one by one', () => {
  const ruleCases = invalidCases.filter((testCase) => testCase.rule !== undefined);

  it('has a rejecting case for every rule', () => {
    expect(new Set(ruleCases.map((testCase) => testCase.rule))).toEqual(
      new Set(Object.keys(crossParameterRules)),
    );
  });

  it.each(ruleCases)('$rule rejects $name and accepts a plain request', ({ body, rule, parameter }) => {
    const check = crossParameterRules[rule!]!;
    const rejected = transcriptRequestSchema.parse(requestBody(body));
    expect(check(rejected)).toContain(parameter);
    expect(check(transcriptRequestSchema.parse(requestBody({})))).toBeUndefined();
  });
});
