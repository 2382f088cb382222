import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paragraphsTouched, quoteCheck, type CheckStamp } from './quote-check';

// Paragraphs start at 0, 10 s and 20 s; the last runs to the end of the recording.
const paragraphs = [{ startMs: 0 }, { startMs: 10_000 }, { startMs: 20_000 }];
const stamp = (paragraph: number, checkedAt: number, checkedBy: string | null = null): CheckStamp => ({
  paragraph,
  checkedAt,
  checkedBy,
});

describe('whether a quote was checked against the audio', () => {
  it('is checked when every paragraph it touches is stamped: by whoever stamped last, when they did', () => {
    const stamps = [stamp(0, 5, 'ana'), stamp(1, 9, 'ben'), stamp(2, 7)];
    expect(quoteCheck({ startMs: 1000, endMs: 4000 }, paragraphs, stamps)).toEqual({ by: 'ana', at: 5 });
    expect(quoteCheck({ startMs: 9000, endMs: 21_000 }, paragraphs, stamps)).toEqual({ by: 'ben', at: 9 });
    expect(quoteCheck({ startMs: 25_000, endMs: 90_000 }, paragraphs, stamps)).toEqual({ by: null, at: 7 });
  });

  it('is not checked when only part of it is: a quotation is printed whole', () => {
    expect(quoteCheck({ startMs: 9000, endMs: 11_000 }, paragraphs, [stamp(0, 5)])).toBeNull();
    expect(quoteCheck({ startMs: 9000, endMs: 11_000 }, paragraphs, [stamp(1, 5)])).toBeNull();
    // Paragraphs 0 and 2 stamped, the middle one not.
    expect(quoteCheck({ startMs: 5000, endMs: 25_000 }, paragraphs, [stamp(0, 5), stamp(2, 6)])).toBeNull();
  });

  it('does not touch the next paragraph when it ends where that one starts', () => {
    expect(paragraphsTouched(paragraphs, { startMs: 4000, endMs: 10_000 })).toEqual({ first: 0, last: 0 });
    expect(quoteCheck({ startMs: 4000, endMs: 10_000 }, paragraphs, [stamp(0, 5)])).toEqual({
      by: null,
      at: 5,
    });
    expect(paragraphsTouched(paragraphs, { startMs: 4000, endMs: 10_001 })).toEqual({ first: 0, last: 1 });
  });

  it('is never checked before the first paragraph or without paragraphs or stamps', () => {
    const late = [{ startMs: 2000 }, { startMs: 10_000 }];
    expect(quoteCheck({ startMs: 1000, endMs: 3000 }, late, [stamp(0, 5), stamp(1, 5)])).toBeNull();
    expect(quoteCheck({ startMs: 1000, endMs: 3000 }, [], [stamp(0, 5)])).toBeNull();
    expect(quoteCheck({ startMs: 1000, endMs: 3000 }, paragraphs, [])).toBeNull();
  });

  it('is checked exactly when every paragraph whose time overlaps the quote is stamped, for any paragraphs, stamps and span', () => {
    const layout = fc
      .uniqueArray(fc.integer({ min: 0, max: 60_000 }), { minLength: 1, maxLength: 12 })
      .map((starts) => starts.sort((a, b) => a - b).map((startMs) => ({ startMs })));
    fc.assert(
      fc.property(
        layout,
        fc.array(
          fc.record({ paragraph: fc.nat(12), at: fc.nat(1000), by: fc.constantFrom(null, 'ana', 'ben') }),
        ),
        fc.nat(70_000),
        fc.nat(20_000),
        (starts, raw, startMs, length) => {
          // One stamp per paragraph, as the library keeps them.
          const stamps = new Map(raw.map((s) => [s.paragraph, stamp(s.paragraph, s.at, s.by)]));
          const span = { startMs, endMs: startMs + length };
          // Paragraph i holds [start i, start i+1); the quote holds [start, end), at least its first moment.
          const quoteEnd = Math.max(span.endMs, span.startMs + 1);
          const overlapping = starts
            .map((paragraph, index) => ({
              index,
              from: paragraph.startMs,
              to: starts[index + 1]?.startMs ?? Infinity,
            }))
            .filter((paragraph) => paragraph.from < quoteEnd && span.startMs < paragraph.to);
          const covered = span.startMs >= (starts[0]?.startMs ?? Infinity);
          const expected = covered && overlapping.every((paragraph) => stamps.has(paragraph.index));
          const check = quoteCheck(span, starts, [...stamps.values()]);
          expect(check !== null).toBe(expected);
          if (check) {
            const latest = Math.max(
              ...overlapping.map((paragraph) => stamps.get(paragraph.index)!.checkedAt),
            );
            expect(check.at).toBe(latest);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
