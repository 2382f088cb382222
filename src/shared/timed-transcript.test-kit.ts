import fc from 'fast-check';
import type { Word } from './library';

/**
 * Test support for the seam between times and words: generated transcripts as the service
 * returns them, sentences of timed words with gaps between sentences (often under a second, so
 * a sentence and the last word before it share a printed second) and words that overlap or
 * leave gaps inside a sentence, and the times a person types.
 */

export interface TimedSentence {
  speaker: string;
  startMs: number;
  endMs: number;
  text: string;
  words: Word[];
}

interface SentenceShape {
  speaker: 'A' | 'B';
  gapBeforeMs: number;
  leadMs: number;
  tailMs: number;
  words: { stepMs: number; lengthMs: number }[];
}

const sentenceShape: fc.Arbitrary<SentenceShape> = fc.record({
  speaker: fc.constantFrom('A' as const, 'B' as const),
  gapBeforeMs: fc.oneof(fc.integer({ min: 0, max: 900 }), fc.integer({ min: 0, max: 12_000 })),
  leadMs: fc.integer({ min: 0, max: 300 }),
  tailMs: fc.integer({ min: 0, max: 300 }),
  // A step shorter than the word before makes them overlap; a longer one leaves a gap.
  words: fc.array(
    fc.record({ stepMs: fc.integer({ min: 1, max: 800 }), lengthMs: fc.integer({ min: 20, max: 900 }) }),
    { minLength: 1, maxLength: 6 },
  ),
});

/** Sentences in the order spoken, never overlapping one another; every word inside its sentence's span. */
export const timedTranscripts: fc.Arbitrary<TimedSentence[]> = fc
  .record({
    firstMs: fc.integer({ min: 0, max: 5000 }),
    shapes: fc.array(sentenceShape, { minLength: 1, maxLength: 7 }),
  })
  .map(({ firstMs, shapes }) => {
    const sentences: TimedSentence[] = [];
    let cursor = firstMs;
    shapes.forEach((shape, index) => {
      const startMs = cursor + (index === 0 ? 0 : shape.gapBeforeMs);
      let wordStart = startMs + shape.leadMs;
      const words: Word[] = shape.words.map((timing, wordIndex) => {
        if (wordIndex > 0) wordStart += timing.stepMs;
        return {
          text: `s${index + 1}w${wordIndex + 1}${wordIndex === shape.words.length - 1 ? '.' : ''}`,
          start: wordStart,
          end: wordStart + timing.lengthMs,
          confidence: 0.9,
          speaker: shape.speaker,
        };
      });
      const endMs = Math.max(...words.map((word) => word.end)) + shape.tailMs;
      sentences.push({
        speaker: shape.speaker,
        startMs,
        endMs,
        text: words.map((word) => word.text).join(' '),
        words,
      });
      cursor = endMs;
    });
    return sentences;
  });

/** A time as a person types it: whole seconds (as printed), or a tenth, hundredth or thousandth. */
export const typedTimes = (maxMs: number): fc.Arbitrary<{ ms: number; precisionMs: number }> =>
  fc
    .constantFrom(1000, 100, 10, 1)
    .chain((precisionMs) =>
      fc
        .integer({ min: 0, max: Math.floor(maxMs / precisionMs) })
        .map((steps) => ({ ms: steps * precisionMs, precisionMs })),
    );

/** The typed time as written on a command line: "37", "37.5", "37.25" or "37.125" seconds. */
export function typedSeconds(time: { ms: number; precisionMs: number }): string {
  const decimals = Math.round(Math.log10(1000 / time.precisionMs));
  return (time.ms / 1000).toFixed(decimals);
}
