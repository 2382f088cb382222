import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { Library } from './library';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from './completed-transcript.test-kit';

/**
 * Where highlights and review stamps meet (issue #36, point 3): for any paragraphs, stamps,
 * highlights and corrections, a quote in the Quotes view and in a story is checked exactly when
 * every paragraph its span touches is stamped, and a correction (which retimes the words it
 * changes, the highlights' words refreshed in its transaction) never makes an unchecked quote
 * look checked.
 */

// Eight sentences three seconds apart, each of five words 400 ms apart.
const lines = Array.from(
  { length: 8 },
  (_, index) => ['A', `Sentence ${index} has five words`, index * 3000] as const,
);
const id = 't1';

/** Oracle: paragraph i holds [start i, start i+1); a span touches those it overlaps. */
function expectedChecked(
  span: { startMs: number; endMs: number },
  starts: readonly number[],
  stamped: ReadonlySet<number>,
): boolean {
  if (span.startMs < (starts[0] ?? Infinity)) return false;
  return starts.every((from, index) => {
    const to = starts[index + 1] ?? Infinity;
    const overlaps = from < Math.max(span.endMs, span.startMs + 1) && span.startMs < to;
    return !overlaps || stamped.has(index);
  });
}

const scenario = fc.record({
  // Which sentences start a paragraph (the first always does).
  paragraphStarts: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 6 }),
  stamps: fc.uniqueArray(fc.nat(7), { maxLength: 8 }),
  highlights: fc.array(
    fc.record({ startMs: fc.integer({ min: 0, max: 23_000 }), length: fc.integer({ min: 300, max: 9000 }) }),
    { minLength: 1, maxLength: 4 },
  ),
  corrections: fc.array(
    fc.record({
      sentence: fc.nat(7),
      text: fc.constantFrom('Changed', 'Now said in many more words than before', 'Two words'),
    }),
    { maxLength: 3 },
  ),
});

describe('a quote checked against the audio', () => {
  it('is checked exactly when every paragraph it touches is stamped, before and after any corrections', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ paragraphStarts, stamps, highlights, corrections }) => {
        const db = openDatabase(':memory:');
        let clock = 1000;
        const library = new Library(db, () => clock++);
        try {
          const firstSentences = [0, ...paragraphStarts].sort((a, b) => a - b);
          const starts = firstSentences.map((sentence) => sentence * 3000);
          const paragraphs = starts.map((start, index) => ({
            text: 'paragraph',
            start,
            end: (starts[index + 1] ?? 24_000) - 500,
          }));
          await storeFinished(
            library,
            id,
            'Interview',
            completedTranscriptFromLines(lines, misheardTimings, {
              transcript: { id: 'remote' },
              paragraphs,
            }),
          );
          const stamped = new Set(stamps.filter((paragraph) => paragraph < starts.length));
          for (const paragraph of stamped) await library.setParagraphChecked(id, paragraph, true);
          const story = await library.createStory('Story');
          for (const span of highlights) {
            const highlight = await library
              .createHighlight({ transcriptId: id, startMs: span.startMs, endMs: span.startMs + span.length })
              .catch(() => undefined); // a span between words holds none: no highlight
            if (highlight) await library.addQuoteToStory(story.id, highlight.id, { again: true });
          }
          const checkedNow = async (): Promise<Map<number, boolean>> => {
            const quotes = (await library.quotes()).quotes;
            for (const quote of quotes) {
              expect(quote.checked !== null, `${quote.startMs}–${quote.endMs}`).toBe(
                expectedChecked(quote, starts, stamped),
              );
              if (quote.checked) expect(quote.checked.by).toBeNull();
            }
            const items = (await library.story(story.id)).items;
            for (const item of items)
              if (item.kind === 'quote')
                expect(item.checked).toEqual(quotes.find((q) => q.id === item.highlightId)?.checked);
            return new Map(quotes.map((quote) => [quote.id, quote.checked !== null]));
          };
          const before = await checkedNow();
          for (const correction of corrections)
            await library.edit(id, {
              kind: 'text',
              from: correction.sentence,
              count: 1,
              text: correction.text,
            });
          const after = await checkedNow();
          for (const [highlight, wasChecked] of before)
            if (!wasChecked) expect(after.get(highlight), `highlight ${highlight}`).toBe(false);
        } finally {
          db.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
