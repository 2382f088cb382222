import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { markedParts } from './newsroom-hit';

describe('a newsroom hit marked at its spans', () => {
  it('marks the matched words of the sentence', () => {
    expect(markedParts('The harbour master said', [{ start: 4, end: 11 }])).toEqual([
      { text: 'The ', match: false },
      { text: 'harbour', match: true },
      { text: ' master said', match: false },
    ]);
  });

  it('keeps every character of the sentence in order, whatever spans come (never widened, never lost)', () => {
    const span = fc.record({
      start: fc.integer({ min: -5, max: 80 }),
      end: fc.integer({ min: -5, max: 80 }),
    });
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.array(span, { maxLength: 6 }), (text, spans) => {
        const parts = markedParts(text, spans);
        expect(parts.map((part) => part.text).join('')).toBe(text);
        expect(parts.every((part) => part.text.length > 0)).toBe(true);
        // Each marked character lies inside a span main sent.
        let at = 0;
        for (const part of parts) {
          if (part.match)
            for (let index = at; index < at + part.text.length; index++)
              expect(spans.some((each) => each.start <= index && index < each.end)).toBe(true);
          at += part.text.length;
        }
      }),
    );
  });
});
