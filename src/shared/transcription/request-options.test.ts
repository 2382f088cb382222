import { describe, expect, it } from 'vitest';
import { checkTranscriptionOptions } from './request-options';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

const refused: [string, Record<string, unknown>, string][] = [
  ['a non-URL audio_url', { audio_url: 'not a url' }, 'audio_url'],
  ['a negative audio_start_from', { audio_start_from: -1 }, 'audio_start_from'],
  ['audio_end_at before the start', { audio_start_from: 5000, audio_end_at: 4000 }, 'audio_end_at'],
  ['language_codes without en', { language_codes: ['es', 'fr'] }, 'language_codes'],
  ['a threshold above 1', { language_confidence_threshold: 1.2 }, 'language_confidence_threshold'],
  [
    'an unknown detection option',
    { language_detection_options: { shout: true } },
    'language_detection_options',
  ],
  [
    'a code-switching threshold above 1',
    { language_detection_options: { code_switching_confidence_threshold: 2 } },
    'code_switching_confidence_threshold',
  ],
  ['a base-language localization', { language_detection_options: { localization: ['en'] } }, 'localization'],
  [
    'a default-region localization',
    { language_detection_options: { localization: ['en_us'] } },
    'localization',
  ],
  [
    'two locales for one language',
    { language_detection_options: { localization: ['en_au', 'en_uk'] } },
    'localization',
  ],
  ['an unknown speech model', { speech_models: ['nano'] }, 'speech_models'],
  [
    '201 key terms on universal-2',
    { speech_models: ['universal-2'], keyterms_prompt: Array.from({ length: 201 }, (_, i) => `t${i}`) },
    'keyterms_prompt',
  ],
  [
    '201 key terms with the default models (universal-2 is among them)',
    { keyterms_prompt: Array.from({ length: 201 }, (_, i) => `t${i}`) },
    'keyterms_prompt',
  ],
  [
    '1001 key terms on universal-3-5-pro',
    {
      speech_models: ['universal-3-5-pro'],
      keyterms_prompt: Array.from({ length: 1001 }, (_, i) => `t${i}`),
    },
    'keyterms_prompt',
  ],
  ['a seven-word key term', { keyterms_prompt: [words(7)] }, 'keyterms_prompt'],
  ['a prompt on universal-2', { speech_models: ['universal-2'], prompt: 'Names: Ortiz' }, 'prompt'],
  ['a 1,501-word prompt', { speech_models: ['universal-3-5-pro'], prompt: words(1501) }, 'prompt'],
  [
    'a custom spelling "to" of two words',
    { custom_spelling: [{ from: ['ortis'], to: 'Mayor Ortiz' }] },
    'custom_spelling',
  ],
  [
    'a custom spelling "from" of six words',
    { custom_spelling: [{ from: [words(6)], to: 'Ortiz' }] },
    'custom_spelling',
  ],
  [
    'content_safety_confidence 24',
    { content_safety: true, content_safety_confidence: 24 },
    'content_safety_confidence',
  ],
  [
    'content_safety_confidence 101',
    { content_safety: true, content_safety_confidence: 101 },
    'content_safety_confidence',
  ],
  [
    'content_safety_confidence 50.5',
    { content_safety: true, content_safety_confidence: 50.5 },
    'content_safety_confidence',
  ],
  [
    'audio redaction options without audio redaction',
    {
      redact_pii: true,
      redact_pii_policies: ['person_name'],
      redact_pii_audio_options: { override_audio_redaction_method: 'silence' },
    },
    'redact_pii_audio_options',
  ],
  [
    'an unknown substitution',
    { redact_pii: true, redact_pii_policies: ['person_name'], redact_pii_sub: 'stars' },
    'redact_pii_sub',
  ],
  ['redaction without policies', { redact_pii: true }, 'redact_pii_policies'],
  ['policies without redaction', { redact_pii_policies: ['person_name'] }, 'redact_pii'],
  ['speakers_expected 0', { speaker_labels: true, speakers_expected: 0 }, 'speakers_expected'],
  ['speakers_expected without speaker labels', { speakers_expected: 2 }, 'speakers_expected'],
  [
    'chapters with universal-3-5-pro only',
    { speech_models: ['universal-3-5-pro'], auto_chapters: true },
    'auto_chapters',
  ],
  [
    'chapters and summaries together',
    { speech_models: ['universal-2'], auto_chapters: true, summarization: true },
    'summarization',
  ],
  ['summary_type without summarization', { summary_type: 'bullets' }, 'summarization'],
  [
    'an auth value without a header name',
    { webhook_url: 'https://hooks.example/x', webhook_auth_header_value: 's' },
    'webhook_auth_header_name',
  ],
  ['a bad webhook_url', { webhook_url: 'hooks' }, 'webhook_url'],
  ['a language code with detection', { language_code: 'en', language_detection: true }, 'language_code'],
  ['multichannel with speaker labels', { multichannel: true, speaker_labels: true }, 'speaker_labels'],
  [
    'an empty translation',
    { speech_understanding: { request: { translation: { target_languages: [] } } } },
    'translation',
  ],
  ['an unknown option', { speakers: 2 }, 'speakers'],
  ['a wrong type', { punctuate: 'yes' }, 'punctuate'],
];

describe('transcription options', () => {
  it.each(refused)('refuses %s, naming the parameter', (_name, options, parameter) => {
    const result = checkTranscriptionOptions(options);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => `${p.path} ${p.message}`).join(' | ')).toContain(parameter);
  });

  it('accepts a full, sensible set of options', () => {
    const result = checkTranscriptionOptions({
      audio_url: 'https://cdn.example/interview.mp3',
      speaker_labels: true,
      speakers_expected: 2,
      language_detection: true,
      language_detection_options: {
        expected_languages: ['en', 'es'],
        code_switching: true,
        localization: ['en_uk'],
      },
      keyterms_prompt: Array.from({ length: 200 }, (_, i) => `term ${i}`),
      custom_spelling: [{ from: ['mayor ortis', 'ortis'], to: 'Ortiz' }],
      entity_detection: true,
      auto_highlights: true,
      sentiment_analysis: true,
      iab_categories: true,
      content_safety: true,
      content_safety_confidence: 25,
      redact_pii: true,
      redact_pii_policies: ['person_name', 'phone_number'],
      redact_pii_sub: 'hash',
      redact_pii_audio: true,
      redact_pii_audio_options: { override_audio_redaction_method: 'silence' },
      redact_pii_return_unredacted: true,
      webhook_url: 'https://hooks.example/x?job=1',
      webhook_auth_header_name: 'X-Secret',
      webhook_auth_header_value: 'v',
      speech_understanding: { request: { translation: { target_languages: ['es'], formal: true } } },
    });
    expect(result).toMatchObject({ ok: true });
    expect(
      checkTranscriptionOptions({
        speech_models: ['universal-3-5-pro'],
        keyterms_prompt: Array.from({ length: 1000 }, (_, i) => `t${i}`),
        prompt: words(1500),
      }),
    ).toMatchObject({ ok: true });
    expect(checkTranscriptionOptions({ speech_models: ['universal-2'], auto_chapters: true })).toMatchObject({
      ok: true,
    });
  });

  it('reports every problem at once, for inline messages', () => {
    const result = checkTranscriptionOptions({
      content_safety_confidence: 5,
      language_codes: ['es'],
      speakers_expected: 0,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect([...new Set(result.problems.map((p) => p.path))].sort()).toEqual([
      'content_safety_confidence',
      'language_codes',
      'speakers_expected',
    ]);
  });
});
