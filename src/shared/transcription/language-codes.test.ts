import { describe, expect, it } from 'vitest';
import { isLanguageCode, languageChoices, languageCodeProblem, languageName } from './language-codes';
import { checkTranscriptionOptions } from './request-options';

describe('language codes', () => {
  it('knows the service codes, regional variants included, and nothing else', () => {
    for (const code of ['en', 'en_us', 'en_uk', 'de_ch', 'fr', 'haw', 'jw'])
      expect(isLanguageCode(code)).toBe(true);
    for (const code of ['english', 'EN', 'en-us', 'fr_ca', 'xx', ''])
      expect(isLanguageCode(code)).toBe(false);
  });

  it('names a code for people: regional English, the service’s own Javanese code', () => {
    expect(languageName('fr')).toBe('French');
    expect(languageName('en_uk')).toMatch(/English/);
    expect(languageName('en_uk')).not.toBe(languageName('en_us'));
    expect(languageName('jw')).toBe('Javanese');
    expect(languageName('zz')).toBe('zz');
    const choices = languageChoices();
    expect(choices).toHaveLength(new Set(choices.map((choice) => choice.code)).size);
    expect(choices.map((choice) => choice.name)).toEqual(
      [...choices.map((choice) => choice.name)].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('turns a language name typed as a code into the code to use', () => {
    expect(languageCodeProblem('language_code', 'english')).toBe(
      'language_code: "english" is not a language code the service knows. For English use "en".',
    );
    expect(languageCodeProblem('language_code', 'Spanish')).toContain('use "es"');
    expect(languageCodeProblem('language_code', 'FR')).toBe('language_code: write "fr" in lower case');
    expect(languageCodeProblem('language_code', 'klingon')).toContain('Use a code such as en');
    expect(languageCodeProblem('language_code', 'de')).toBeNull();
  });

  it('is checked by the one options validator the form and the command line share', () => {
    const refused = checkTranscriptionOptions({ language_code: 'english' });
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.problems).toContainEqual({
        path: 'language_code',
        message: expect.stringContaining('"en"') as string,
      });
    expect(checkTranscriptionOptions({ language_code: 'en_au' }).ok).toBe(true);
    const codes = checkTranscriptionOptions({ language_codes: ['en', 'espanol'] });
    expect(codes.ok).toBe(false);
    if (!codes.ok) expect(codes.problems.map((problem) => problem.path)).toContain('language_codes');
    const expected = checkTranscriptionOptions({
      language_detection: true,
      language_detection_options: { expected_languages: ['en', 'german'], fallback_language: 'auto' },
    });
    expect(expected.ok).toBe(false);
    if (!expected.ok)
      expect(expected.problems.map((problem) => problem.path)).toEqual([
        'language_detection_options.expected_languages',
      ]);
    expect(
      checkTranscriptionOptions({
        language_detection: true,
        language_detection_options: { expected_languages: ['en', 'de'], fallback_language: 'auto' },
      }).ok,
    ).toBe(true);
    const fallback = checkTranscriptionOptions({
      language_detection: true,
      language_detection_options: { fallback_language: 'Deutsch' },
    });
    expect(fallback.ok).toBe(false);
  });
});
