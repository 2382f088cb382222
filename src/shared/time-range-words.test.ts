import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  rangeOfTypedTimes,
  selectWords,
  sentencesInRange,
  typedTimeMs,
  wordsInRange,
  type TimedWord,
} from './time-range-words';

/** The seam of issue #31: "frustration." ends at 37.415 s and "Frankly," starts at 37.744 s. */
function word(text: string, start: number, end: number) {
  return { text, start, end };
}
const understand = {
  startMs: 34_900,
  endMs: 37_415,
  words: [word('I', 34_900, 35_100), word('understand', 35_200, 35_900), word('the', 36_000, 36_400)].concat(
    word('frustration.', 36_705, 37_415),
  ),
};
const frankly = {
  startMs: 37_744,
  endMs: 43_100,
  words: [word('Frankly,', 37_744, 38_200), word('the', 38_300, 38_500), word('disgrace.', 42_400, 43_100)],
};
const when = {
  startMs: 44_250,
  endMs: 46_000,
  words: [word('When', 44_250, 44_600), word('does', 44_700, 45_000)],
};
const sentences = [understand, frankly, when];
const texts = (words: readonly { text: string }[]) => words.map((w) => w.text).join(' ');

describe('a typed time', () => {
  it('stands for the sentence printed at it, not the last word before it', () => {
    const range = rangeOfTypedTimes(
      sentences,
      { ms: 37_000, precisionMs: 1000 },
      { ms: 44_000, precisionMs: 1000 },
    );
    expect(range).toEqual({ startMs: 37_744, endMs: 44_250 });
    expect(
      texts(
        wordsInRange(
          sentences.flatMap((s) => s.words),
          range,
        ),
      ),
    ).toBe('Frankly, the disgrace.');
    expect(sentencesInRange(sentences, range)).toEqual([frankly]);
  });

  it('even when the word before starts within the same printed second', () => {
    const late = {
      ...understand,
      endMs: 37_500,
      words: [...understand.words.slice(0, 3), word('it.', 37_100, 37_500)],
    };
    const range = rangeOfTypedTimes(
      [late, frankly],
      { ms: 37_000, precisionMs: 1000 },
      { ms: 43_000, precisionMs: 1000 },
    );
    expect(range.startMs).toBe(37_744);
  });

  it('means a sentence’s end when only an end falls in it, and itself when no boundary does', () => {
    expect(typedTimeMs(sentences, { ms: 43_000, precisionMs: 1000 })).toBe(43_100);
    expect(typedTimeMs(sentences, { ms: 40_000, precisionMs: 1000 })).toBe(40_000);
    // Written to the tenth, it stands for that tenth only.
    expect(typedTimeMs(sentences, { ms: 37_000, precisionMs: 100 })).toBe(37_000);
  });
});

describe('the words of a range', () => {
  it('takes a word it cuts into only when most of it is inside', () => {
    const words = frankly.words;
    expect(texts(wordsInRange(words, { startMs: 37_900, endMs: 38_600 }))).toBe('Frankly, the');
    expect(texts(wordsInRange(words, { startMs: 38_000, endMs: 38_400 }))).toBe('');
    expect(texts(wordsInRange(words, { startMs: 37_972, endMs: 38_600 }))).toBe('the');
  });

  const timedWords = fc.array(
    fc
      .record({ start: fc.integer({ min: 0, max: 10_000 }), length: fc.integer({ min: 0, max: 2000 }) })
      .map(({ start, length }): TimedWord => ({ start, end: start + length })),
    { maxLength: 20 },
  );
  const ranges = fc
    .tuple(fc.integer({ min: 0, max: 12_000 }), fc.integer({ min: 1, max: 12_000 }))
    .map(([startMs, length]) => ({ startMs, endMs: startMs + length }));

  it('never holds a word mostly outside it, and holds every word wholly inside it', () => {
    fc.assert(
      fc.property(timedWords, ranges, (words, range) => {
        const inside = wordsInRange(words, range);
        for (const w of inside) {
          const length = Math.max(1, w.end - w.start);
          const overlap =
            Math.min(Math.max(w.end, w.start + 1), range.endMs) - Math.max(w.start, range.startMs);
          expect(overlap * 2).toBeGreaterThan(length);
        }
        for (const w of words)
          if (w.start >= range.startMs && Math.max(w.end, w.start + 1) <= range.endMs)
            expect(inside).toContain(w);
      }),
    );
  });

  it('is kept as a span in which the rule finds exactly the same words, however words overlap', () => {
    fc.assert(
      fc.property(timedWords, ranges, (words, range) => {
        const selected = selectWords(words, range);
        if (!selected) expect(wordsInRange(words, range)).toEqual([]);
        else {
          expect(wordsInRange(words, selected.span)).toEqual(selected.words);
          expect(selected.span.endMs).toBeGreaterThan(selected.span.startMs);
        }
      }),
    );
  });
});
