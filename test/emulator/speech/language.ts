import { wordSet } from './word-set';
import { roundTo, seededNumber } from './seeded-random';
import type { TranscriptRequest } from './types';

/**
 * Which language the transcript reports and which speech model "ran". The spoken language comes from
 * the fixture manifest (unknown audio is English filler); detection confidence is derived from the
 * audio hash so it is stable. Error texts follow the real service's wording.
 */

export type LanguageOutcome =
  { ok: true; languageCode: string; languageConfidence: number | null } | { ok: false; error: string };

const DEFAULT_LANGUAGE_CODE = 'en_us';
const DEFAULT_SPEECH_MODELS = ['universal-3-5-pro', 'universal-2'];
/** universal-3-5-pro covers these languages; the real service falls back to the next model otherwise. */
const UNIVERSAL_3_LANGUAGES = wordSet('en es de fr it pt');

interface DetectionOptions {
  expected_languages?: unknown;
  fallback_language?: unknown;
  localization?: unknown;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function resolveLanguage(
  request: TranscriptRequest,
  spokenLanguage: string,
  audioHash: string,
): LanguageOutcome {
  if (request.language_detection !== true) {
    const code = typeof request.language_code === 'string' ? request.language_code : DEFAULT_LANGUAGE_CODE;
    return { ok: true, languageCode: code, languageConfidence: null };
  }
  const confidence = roundTo(seededNumber(`${audioHash}:language`, 0.86, 0.98), 4);
  const threshold = request.language_confidence_threshold;
  if (typeof threshold === 'number' && confidence < threshold) {
    return {
      ok: false,
      error: `detected language '${spokenLanguage}', confidence ${confidence}, is below the requested confidence threshold value of '${threshold}'`,
    };
  }
  const options = (request.language_detection_options ?? {}) as DetectionOptions;
  const expected = stringList(options.expected_languages);
  let code = spokenLanguage;
  if (expected.length > 0 && !expected.includes('all') && !expected.includes(spokenLanguage)) {
    // Not an expected language: the fallback, or with `auto` the model picks among the expected ones.
    const fallback = typeof options.fallback_language === 'string' ? options.fallback_language : 'auto';
    code = fallback === 'auto' ? (expected[0] as string) : fallback;
  }
  const locale = stringList(options.localization).find((candidate) => candidate.split('_')[0] === code);
  return { ok: true, languageCode: locale ?? code, languageConfidence: confidence };
}

/** The first requested model that covers the language (the deprecated speech_model when given alone). */
export function speechModelUsed(request: TranscriptRequest, languageCode: string): string {
  const requested = stringList(request.speech_models);
  const models =
    requested.length > 0
      ? requested
      : typeof request.speech_model === 'string'
        ? [request.speech_model]
        : DEFAULT_SPEECH_MODELS;
  const base = languageCode.split('_')[0] ?? languageCode;
  const fits = (model: string): boolean =>
    !model.startsWith('universal-3') || UNIVERSAL_3_LANGUAGES.has(base);
  return models.find(fits) ?? (models[models.length - 1] as string);
}
