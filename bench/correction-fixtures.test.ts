import { describe, expect, it } from 'vitest';
import { generatedTranscript } from './fixtures';
import { plantName, retypedWithOneWord, turnsOf, withPunctuatedWords } from './correction-fixtures';

const wordsOf = (segment: { words?: { text: string }[] }): string[] =>
  (segment.words ?? []).map((word) => word.text);

describe('withPunctuatedWords: words carry their full stop, as the service writes them', () => {
  const original = generatedTranscript(2_000, 5);
  const punctuated = withPunctuatedWords(original);

  it('puts each sentence’s stop on its last word, so the text is the words joined', () => {
    for (const sentence of punctuated.sentences) {
      expect(sentence.text).toBe(wordsOf(sentence).join(' '));
      expect(wordsOf(sentence).at(-1)).toMatch(/\.$/);
    }
    for (const paragraph of punctuated.paragraphs) expect(paragraph.text).toBe(wordsOf(paragraph).join(' '));
  });

  it('leaves the generated transcript as it was', () => {
    expect(generatedTranscript(2_000, 5)).toEqual(original);
  });
});

describe('plantName: a name a known number of times', () => {
  const base = withPunctuatedWords(generatedTranscript(6_000, 3));
  const count = (texts: string[]): number => texts.join(' ').split('Brenan').length - 1;

  it('puts the name in exactly that many sentences, once each, spread over the whole transcript', () => {
    const planted = plantName(base, 'Brenan', 50);
    const withName = planted.sentences.flatMap((sentence, index) =>
      sentence.text.includes('Brenan') ? [index] : [],
    );
    expect(withName).toHaveLength(50);
    expect(count(planted.sentences.map((sentence) => sentence.text))).toBe(50);
    expect(withName[0]).toBe(0);
    expect(withName.at(-1)).toBeGreaterThan(planted.sentences.length * 0.9);
    // The words say it too (the editor and search read them), and so do the paragraphs.
    expect(count(planted.sentences.flatMap(wordsOf))).toBe(50);
    expect(count(planted.paragraphs.map((paragraph) => paragraph.text))).toBe(50);
  });

  it('replaces a word rather than adding one, and keeps every text its words joined', () => {
    const planted = plantName(base, 'Brenan', 50);
    planted.sentences.forEach((sentence, index) => {
      expect(sentence.words).toHaveLength(base.sentences[index]!.words!.length);
      expect(sentence.text).toBe(wordsOf(sentence).join(' '));
    });
  });

  it('refuses a name already there, or more occurrences than sentences', () => {
    const planted = plantName(base, 'Brenan', 5);
    expect(() => plantName(planted, 'Brenan', 5)).toThrow(/already/);
    expect(() => plantName(base, 'Brenan', base.sentences.length + 1)).toThrow(/sentences/);
  });
});

describe('turnsOf: speaker turns as the reader shows them', () => {
  it('groups consecutive sentences by the same speaker', () => {
    const speakers = ['A', 'A', 'B', 'A', 'A', 'A', null, null].map((speaker) => ({ speaker }));
    expect(turnsOf(speakers)).toEqual([
      { from: 0, count: 2 },
      { from: 2, count: 1 },
      { from: 3, count: 3 },
      { from: 6, count: 2 },
    ]);
    expect(turnsOf([])).toEqual([]);
  });
});

describe('retypedWithOneWord: a turn as the editor commits it, one word changed', () => {
  const turn = [
    { words: [{ text: 'The' }, { text: 'mayor' }, { text: 'said.' }] },
    { words: [{ text: 'Brenan' }, { text: 'agreed.' }] },
  ];

  it('replaces the middle word by default and says which sentence it is in', () => {
    expect(retypedWithOneWord(turn, 'Alvarez')).toEqual({
      text: 'The mayor Alvarez. Brenan agreed.',
      sentence: 0,
      word: 2,
      replaced: 'said.',
      typed: 'Alvarez.',
    });
  });

  it('replaces the word asked for, counting across sentences and wrapping past the end', () => {
    expect(retypedWithOneWord(turn, 'Brennan', 3)).toEqual({
      text: 'The mayor said. Brennan agreed.',
      sentence: 1,
      word: 0,
      replaced: 'Brenan',
      typed: 'Brennan',
    });
    expect(retypedWithOneWord(turn, 'Brennan', 8).text).toBe('The mayor said. Brennan agreed.');
  });
});
