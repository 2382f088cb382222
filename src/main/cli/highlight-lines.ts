import type { Highlight, HighlightLabel, Quote, Story, StoryItem } from '../../shared/highlights';
import { quoteCheckText } from '../../shared/citation';
import { inQuotationMarks } from '../../shared/quotation-marks';
import type { QuoteCheck } from '../../shared/quote-check';
import { hhmmss } from '../core/export/export-model';

type QuotedWords = Pick<Highlight, 'startMs' | 'speakerName' | 'text' | 'missing'> & {
  languageCode: string | null;
};

/**
 * How the highlight and story commands print a quote: time, speaker and the words, one line, in
 * the quotation marks of the transcript's language, as every other surface prints it.
 */
export function quoteLine(quote: QuotedWords): string {
  const speaker = quote.speakerName ? `${quote.speakerName}: ` : '';
  const missing = quote.missing ? '  (its words were deleted by a correction)' : '';
  return `[${hhmmss(quote.startMs)}] ${speaker}${inQuotationMarks(quote.text, quote.languageCode)}${missing}`;
}

/** "  (checked against the audio by ana on Apr 15, 2025)", as the Quotes view and the citations say it. */
function checkNote(checked: QuoteCheck | null): string {
  return `  (${quoteCheckText(checked, { you: 'you' })})`;
}

export function highlightReport(
  highlight: Highlight,
  label: HighlightLabel,
  transcript: { title: string; languageCode: string | null },
): string {
  return [
    `Highlighted ${hhmmss(highlight.startMs)}–${hhmmss(highlight.endMs)} of "${transcript.title}" as ${label.name} (highlight ${highlight.id}):`,
    `  ${quoteLine({ ...highlight, languageCode: transcript.languageCode })}`,
    ...(highlight.note ? [`  Note: ${highlight.note}`] : []),
  ].join('\n');
}

export function quoteListLines(quotes: readonly Quote[]): string {
  const total = quotes.length;
  if (total === 0) return 'No highlights yet.';
  return [
    ...quotes.map(
      (quote) =>
        `${String(quote.id).padStart(4)}  ${quote.labelName}  "${quote.transcriptTitle}" ${quoteLine(quote)}${quote.note ? `  Note: ${quote.note}` : ''}${checkNote(quote.checked)}`,
    ),
    '',
    `${total} highlight${total === 1 ? '' : 's'}.`,
  ].join('\n');
}

function itemLine(item: StoryItem, index: number): string {
  const number = `${index + 1}.`.padStart(4);
  if (item.kind === 'text') return `${number} ${item.text}`;
  const source = item.transcriptTitle ? `  — "${item.transcriptTitle}"` : '';
  // A quote kept as text is flagged as such, not as deleted words.
  if (item.highlightId === null)
    return `${number} ${quoteLine({ ...item, missing: false })}${source}  (kept as text: its transcript or highlight was deleted)${checkNote(item.checked)}`;
  return `${number} ${quoteLine(item)}${source}${checkNote(item.checked)}`;
}

export function storyLines(story: Story): string {
  const quotes = `${story.quotes} quote${story.quotes === 1 ? '' : 's'}`;
  if (story.items.length === 0) return `Story "${story.name}" (${story.id}) is empty.`;
  return [`Story "${story.name}" (${story.id}), ${quotes}:`, ...story.items.map(itemLine)].join('\n');
}
