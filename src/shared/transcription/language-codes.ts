/**
 * The language codes the transcription service accepts for `language_code`,
 * `language_codes` and language detection's `expected_languages`.
 *
 * The spec says the complete list is "not shown", so this follows the real service's
 * documented list (its "Supported languages" page and the `TranscriptLanguageCode` type of
 * its official SDK): base codes plus the region-aware English and Swiss German variants.
 */
export const languageCodes = [
  'en', 'en_au', 'en_uk', 'en_us', 'es', 'fr', 'de', 'de_ch', 'it', 'pt', 'nl', 'af', 'sq', 'am',
  'ar', 'hy', 'as', 'az', 'ba', 'eu', 'be', 'bn', 'bs', 'br', 'bg', 'my', 'ca', 'zh', 'hr', 'cs',
  'da', 'et', 'fo', 'fi', 'gl', 'ka', 'el', 'gu', 'ht', 'ha', 'haw', 'he', 'hi', 'hu', 'is', 'id',
  'ja', 'jw', 'kn', 'kk', 'km', 'ko', 'lo', 'la', 'lv', 'ln', 'lt', 'lb', 'mk', 'mg', 'ms', 'ml',
  'mt', 'mi', 'mr', 'mn', 'ne', 'no', 'nn', 'oc', 'pa', 'ps', 'fa', 'pl', 'ro', 'ru', 'sa', 'sr',
  'sn', 'sd', 'si', 'sk', 'sl', 'so', 'su', 'sw', 'sv', 'tl', 'tg', 'ta', 'tt', 'te', 'th', 'bo',
  'tr', 'tk', 'uk', 'ur', 'uz', 'vi', 'cy', 'yi', 'yo',
] as const; // prettier-ignore

export type LanguageCode = (typeof languageCodes)[number];

const known = new Set<string>(languageCodes);

export function isLanguageCode(code: string): code is LanguageCode {
  return known.has(code);
}

/** The BCP 47 tag for a service code: `en_uk` → `en-GB`, `jw` (the service's Javanese) → `jv`. */
function bcp47(code: LanguageCode): string {
  if (code === 'jw') return 'jv';
  const [base, region] = code.split('_');
  if (!region) return base!;
  return `${base}-${region === 'uk' ? 'GB' : region.toUpperCase()}`;
}

/** "English (United Kingdom)" for `en_uk`, in the given display language; the code itself if unknown. */
export function languageName(code: string, displayLocale = 'en'): string {
  if (!isLanguageCode(code)) return code;
  try {
    return new Intl.DisplayNames([displayLocale], { type: 'language' }).of(bcp47(code)) ?? code;
  } catch {
    return code;
  }
}

/** Every code with its English name, sorted by name: for a picker. */
export function languageChoices(): { code: LanguageCode; name: string }[] {
  return languageCodes
    .map((code) => ({ code, name: languageName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Why a value is not a language code, in words that help: a language's name typed instead of
 * its code gets the code ("english" → use "en").
 */
export function languageCodeProblem(parameter: string, value: string): string | null {
  if (isLanguageCode(value)) return null;
  const typed = value.trim().toLowerCase();
  if (isLanguageCode(typed)) return `${parameter}: write "${typed}" in lower case`;
  const byName = languageCodes.find((code) => languageName(code).toLowerCase() === typed);
  const hint = byName
    ? ` For ${languageName(byName)} use "${byName}".`
    : ' Use a code such as en, en_us, es, fr or de.';
  return `${parameter}: "${value}" is not a language code the service knows.${hint}`;
}
