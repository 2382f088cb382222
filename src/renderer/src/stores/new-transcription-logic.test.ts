import { describe, expect, it } from 'vitest';
import {
  formatTimecode,
  getAtPath,
  listOption,
  numberOption,
  parseTimecode,
  problemsFor,
  setAtPath,
  spellingOption,
  spellingRows,
  titleFromFileName,
  unclaimedProblems,
} from './new-transcription-logic';
import { checkTranscriptionOptions } from '../../../shared/transcription/request-options';

describe('options by path', () => {
  it('sets nested options without touching the original, and reads them back', () => {
    const before = { speaker_labels: true };
    const after = setAtPath(before, 'language_detection_options.fallback_language', 'en');
    expect(before).toEqual({ speaker_labels: true });
    expect(after).toEqual({ speaker_labels: true, language_detection_options: { fallback_language: 'en' } });
    expect(getAtPath(after, 'language_detection_options.fallback_language')).toBe('en');
    expect(getAtPath(after, 'speaker_labels.nothing')).toBeUndefined();
  });

  it('removes an option set to undefined, and the nested objects it leaves empty', () => {
    const options = setAtPath({}, 'speech_understanding.request.translation.target_languages', ['fr']);
    expect(options).toEqual({
      speech_understanding: { request: { translation: { target_languages: ['fr'] } } },
    });
    expect(
      setAtPath(options, 'speech_understanding.request.translation.target_languages', undefined),
    ).toEqual({});
  });
});

describe('typed text', () => {
  it('reads lists, numbers and timecodes as the options want them', () => {
    expect(listOption(' fr, de ,,es ')).toEqual(['fr', 'de', 'es']);
    expect(listOption('Acme Corp, Ltd\nferry', /\n/)).toEqual(['Acme Corp, Ltd', 'ferry']);
    expect(listOption('  ')).toBeUndefined();
    expect(numberOption('')).toBeUndefined();
    expect(numberOption('20')).toBe(20);
    expect(parseTimecode('01:02:03')).toBe(3_723_000);
    expect(parseTimecode('2:30')).toBe(150_000);
    expect(parseTimecode('4.5')).toBe(4_500);
    expect(parseTimecode('')).toBeUndefined();
    expect(parseTimecode('ten past')).toBeNull();
    expect(formatTimecode(3_723_000)).toBe('01:02:03');
    expect(formatTimecode(undefined)).toBe('');
  });

  it('turns spelling rows into custom_spelling and back, skipping blank rows', () => {
    const rows = [
      { from: 'Verbatum, Verbatem', to: 'Verbatim' },
      { from: ' ', to: '' },
    ];
    const option = spellingOption(rows);
    expect(option).toEqual([{ from: ['Verbatum', 'Verbatem'], to: 'Verbatim' }]);
    expect(spellingRows(option)).toEqual([{ from: 'Verbatum, Verbatem', to: 'Verbatim' }]);
    expect(spellingOption([{ from: '', to: '' }])).toBeUndefined();
  });

  it('titles a job after its file name', () => {
    expect(titleFromFileName('interview-ferry-contract.wav')).toBe('interview-ferry-contract');
    expect(titleFromFileName('.wav')).toBe('.wav');
  });
});

describe('problems next to their fields', () => {
  it('gives each field the validator problems that name it, and lists the rest', () => {
    const checked = checkTranscriptionOptions({
      content_safety: true,
      content_safety_confidence: 20,
      keyterms_prompt: ['one two three four five six seven'],
      language_codes: ['fr'],
    });
    expect(checked.ok).toBe(false);
    const problems = checked.ok ? [] : checked.problems;
    expect(problemsFor(problems, 'content_safety_confidence')).toEqual([
      'content_safety_confidence must be between 25 and 100',
    ]);
    expect(problemsFor(problems, 'keyterms_prompt')[0]).toContain('more than 6 words');
    expect(problemsFor(problems, 'content_safety')).toEqual([]);
    expect(unclaimedProblems(problems, ['content_safety_confidence', 'keyterms_prompt'])).toEqual([
      { path: 'language_codes', message: 'language_codes must include "en" for code switching' },
    ]);
  });
});
