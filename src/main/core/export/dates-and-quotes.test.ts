import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelFacts } from '../../../renderer/src/components/catalog/model-facts';
import { clock } from '../../../renderer/src/lib/reader-model';
import { formatCitation, formatCopiedQuote, timeInRecording } from '../../../shared/citation';
import { catalogModelSchema } from '../../../shared/catalog';
import { formatDay, formatRecordedAt } from '../../../shared/display-format';
import type { Story, StoryItem } from '../../../shared/highlights';
import { inQuotationMarks } from '../../../shared/quotation-marks';
import { languageCodes } from '../../../shared/transcription/language-codes';
import { hhmmss } from './export-model';
import { renderStory } from './story-export';

/**
 * "Reads the same everywhere" (README): a recording's day and a quote are written one way on
 * every surface. For any moment, words, speaker and transcript language, the story exports, the
 * Stories view (formatCitation and inQuotationMarks, as story-page.svelte prints them), the
 * Quotes view (formatDay), the Catalog (modelFacts) and Copy quote must all agree. The tests run
 * with TZ=UTC (vitest.config.ts), the machine time zone every surface writes in.
 */

type QuoteItem = Extract<StoryItem, { kind: 'quote' }>;

const moment = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) });
// Spoken words as a transcript has them: single spaces, no space at either end.
const words = fc
  .array(fc.stringMatching(/^[A-Za-zÀ-ÿ0-9'’,.?!¿¡-]{1,12}$/), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(' '));
const speaker = fc.stringMatching(/^[A-Z][a-z]{1,10}( [A-Z][a-z]{1,10})?$/);
const language = fc.constantFrom<string | null>(...languageCodes, null);

/** A time of day ("9:30 AM") or a machine date ("2025-03-14") would be a second way of writing one. */
const otherDateForms =
  /\d{1,2}:\d{2}\s?[AP]M|\d{4}-\d{2}-\d{2}|\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December)/;

function storyOf(item: QuoteItem): Story {
  return { id: 1, name: 'Story', createdAt: 0, updatedAt: 0, quotes: 1, items: [item] };
}

describe('one way of writing a day and a quote on every surface', () => {
  it('the story exports, the Stories and Quotes views, the Catalog and Copy quote agree', async () => {
    await fc.assert(
      fc.asyncProperty(
        moment,
        words,
        speaker,
        language,
        fc.integer({ min: 0, max: 4 * 3600_000 }),
        fc.option(moment),
        async (recordedAt, text, name, languageCode, startMs, checkedAt) => {
          const item: QuoteItem = {
            id: 1,
            kind: 'quote',
            highlightId: 1,
            text,
            speakerName: name,
            transcriptId: 't1',
            transcriptTitle: 'Interview',
            recordedAt,
            languageCode,
            startMs,
            endMs: startMs + 1000,
            missing: false,
            checked: checkedAt === null ? null : { by: 'ana', at: checkedAt },
          };
          const day = formatDay(recordedAt);
          const quoted = inQuotationMarks(text, languageCode);
          const time = timeInRecording(startMs);

          // The Stories view's citation is the exports' default one, and names the day (and the stamp's).
          const citation = formatCitation(item);
          const check =
            checkedAt === null
              ? 'not checked against the audio'
              : `checked against the audio by ana on ${formatDay(checkedAt)}`;
          expect(citation).toBe(`${name}, “Interview”, ${day}, ${time}, ${check}`);
          for (const format of ['txt', 'md'] as const) {
            const exported = new TextDecoder().decode((await renderStory(storyOf(item), format, {})).bytes);
            // Markdown read as text: no block-quote marks or escapes, lines joined (no-break spaces kept).
            const read = exported
              .replace(/^> ?/gm, '')
              .replace(/\\/g, '')
              .replace(/[ \n]+/g, ' ');
            expect(read).toContain(`${quoted} — ${citation}`);
            expect(exported).not.toMatch(otherDateForms);
          }
          // Copy quote: the same quotation, the same time in the recording.
          expect(formatCopiedQuote(text, name, startMs, languageCode)).toBe(`${quoted} — ${name}, [${time}]`);
          // The Quotes view and the library: the day, and the day is where the date and time start.
          expect(formatRecordedAt(recordedAt).startsWith(`${day}, `)).toBe(true);
          // The Catalog's "Added" (a model made at that moment).
          const model = catalogModelSchema.parse({
            id: 'a/model',
            name: 'Model',
            created: Math.floor(recordedAt / 1000),
            architecture: {},
            pricing: { prompt: '0', completion: '0' },
          });
          expect(modelFacts(model).find((fact) => fact.label === 'Added')?.value).toBe(day);
          expect(citation).not.toMatch(otherDateForms);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes a time in the recording as the reader and the transcript exports do', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 * 3600_000 }), (ms) => {
        expect(timeInRecording(ms)).toBe(hhmmss(ms));
        expect(timeInRecording(ms)).toBe(clock(ms));
      }),
    );
  });
});
