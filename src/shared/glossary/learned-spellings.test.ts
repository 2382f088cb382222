import { describe, expect, it } from 'vitest';
import type { SentenceChange } from '../corrections/corrections';
import { learnedFromWords, learnedSpellings, similarity } from './learned-spellings';

function change(before: string, after: string): SentenceChange {
  const sentence = (text: string): SentenceChange['removed'][number] => ({
    startMs: 0,
    endMs: 1000,
    speaker: 'A',
    confidence: 1,
    text,
    words: text
      .split(' ')
      .map((word, index) => ({ text: word, start: index * 100, end: index * 100 + 90, confidence: 1 })),
  });
  return { position: 0, removed: [sentence(before)], inserted: [sentence(after)] };
}

describe('learnedSpellings', () => {
  it('finds a respelled name with the form the service heard, punctuation aside', () => {
    expect(
      learnedSpellings([change('Mayor Brenan opened the meeting.', 'Mayor Brennan opened the meeting.')]),
    ).toEqual([{ spelling: 'Brennan', misheard: 'Brenan' }]);
    expect(
      learnedSpellings([change('We met in port hollow today.', 'We met in Port Hollow today.')]),
    ).toEqual([]);
    expect(learnedSpellings([change('The gull is land ferry.', 'The Gull Island ferry.')])).toEqual([
      { spelling: 'Gull Island', misheard: 'gull is land' },
    ]);
  });

  it('leaves out ordinary rewording, a change of case alone and what a glossary spells already', () => {
    expect(learnedSpellings([change('It was a good day.', 'It was a bad day.')])).toEqual([]);
    expect(learnedSpellings([change('the council met', 'the Council met')])).toEqual([]);
    expect(
      learnedSpellings([change('Mayor Brenan spoke.', 'Mayor Brennan spoke.')], new Set(['brennan'])),
    ).toEqual([]);
    // A long rewrite is not a spelling.
    expect(learnedSpellings([change('one two three four five six seven', 'Alpha Beta Gamma Delta')])).toEqual(
      [],
    );
  });

  it('takes a lower-case word only when its letters are mostly the old ones', () => {
    expect(learnedSpellings([change('the tender was wrushed', 'the tender was rushed')])).toEqual([
      { spelling: 'rushed', misheard: 'wrushed' },
    ]);
    expect(similarity('Brenan', 'Brennan')).toBeCloseTo(6 / 7);
    expect(similarity('good', 'bad')).toBeLessThan(0.6);
  });
});

describe('learnedFromWords', () => {
  it('compares a turn as it was with the turn as typed, word by word', () => {
    const before = 'They will run the crossing between Port Hollow and Gull Island every hour.'.split(' ');
    const after = 'They will run the crossing between Port Hollow and Gall Island every hour!'.split(' ');
    expect(learnedFromWords(before, after)).toEqual([{ spelling: 'Gall', misheard: 'Gull' }]);
    expect(learnedFromWords(before, after, new Set(['gall']))).toEqual([]);
  });
});
