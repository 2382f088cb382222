import { formatDay } from './display-format';
import { inQuotationMarks } from './quotation-marks';
import type { QuoteCheck } from './quote-check';
import { defaultCitationTemplate } from './story-export-options';

/**
 * How a quote and its source read wherever Verbatim shows or writes one: a story's exports and
 * the Stories view print the same citation, and Copy quote the same quotation. The day is the
 * recording's (formatDay, never a time of day), the time is where the words are in the
 * recording, and the words are in the quotation marks of their transcript's language.
 */

/** What a citation names of a quote. */
export interface CitedQuote {
  speakerName: string | null;
  /** Null for a quote kept as text after its transcript was deleted. */
  transcriptId: string | null;
  transcriptTitle: string;
  recordedAt: number;
  startMs: number;
  /** The colleague who recorded a quote of a copy kept from the newsroom (issue #35, point 6). */
  recordedBy?: { reporter: string; desk: string } | undefined;
  /**
   * Whether its words were checked against the audio (issue #36, point 3): a story's citations
   * say so either way. Absent where it is not known (a quote read from the online newsroom).
   */
  checked?: QuoteCheck | null | undefined;
}

export const unknownSpeaker = 'Unknown speaker';

/**
 * Ends the citation of a quote kept as text after its transcript was deleted. The quotation
 * itself is printed as it was: what was said has not changed, only where it can be checked.
 */
export const sourceGoneNote = '(recording no longer in the library)';

/** "recorded by ana, City desk": who recorded a colleague's transcript, as its citations name them. */
export function recordedByText(reporter: string, desk: string): string {
  return `recorded by ${reporter}, ${desk} desk`;
}

/**
 * "checked against the audio by ana on Nov 3, 2026", or "not checked against the audio". A
 * stamp of this library's reporter names nobody in an export (the story is theirs, as a quote
 * of their own interview names no recorder) and `you` in the app's own views.
 */
export function quoteCheckText(
  checked: QuoteCheck | null,
  options: { timeZone?: string | undefined; you?: string | undefined } = {},
): string {
  if (!checked) return 'not checked against the audio';
  const by = checked.by ?? options.you;
  return `checked against the audio${by ? ` by ${by}` : ''} on ${formatDay(checked.at, options.timeZone)}`;
}

/** 751000 → "00:12:31": where the words are in the recording, as the reader's clock shows it. */
export function timeInRecording(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** A quote kept as text after its transcript was deleted: no transcript, so no recording. */
export function sourceGone(quote: Pick<CitedQuote, 'transcriptId'>): boolean {
  return quote.transcriptId === null;
}

/**
 * The citation without its leading dash: the template (a validated citation style, by default
 * `{speaker}, “{title}”, {date}, {time}`) with each fact filled in, then who recorded it when it
 * is a colleague's (a copy kept from the newsroom: whatever the style, a quote never passes for
 * the reporter's own interview), whether it was checked against the audio when that is known,
 * and the note when the recording is no longer in the library.
 */
export function formatCitation(
  quote: CitedQuote,
  template: string = defaultCitationTemplate,
  timeZone?: string,
): string {
  const facts: Record<string, string> = {
    speaker: quote.speakerName?.trim() || unknownSpeaker,
    title: quote.transcriptTitle,
    date: formatDay(quote.recordedAt, timeZone),
    time: timeInRecording(quote.startMs),
  };
  // The template was validated, so every {name} is one of the facts above.
  const filled = template.replace(/\{([a-z]+)\}/g, (whole, name: string) => facts[name] ?? whole);
  const recorded = quote.recordedBy
    ? `${filled}, ${recordedByText(quote.recordedBy.reporter, quote.recordedBy.desk)}`
    : filled;
  const citation =
    quote.checked === undefined ? recorded : `${recorded}, ${quoteCheckText(quote.checked, { timeZone })}`;
  return sourceGone(quote) ? `${citation} ${sourceGoneNote}` : citation;
}

/**
 * What Copy quote puts on the clipboard: `“The words.” — Speaker, [00:01:23]`, and who recorded
 * it when it is a colleague's (a copy kept from the newsroom).
 */
export function formatCopiedQuote(
  text: string,
  speaker: string,
  ms: number,
  languageCode: string | null | undefined,
  recordedBy?: { reporter: string; desk: string },
): string {
  const by = recordedBy ? `, ${recordedByText(recordedBy.reporter, recordedBy.desk)}` : '';
  return `${inQuotationMarks(text.trim().replace(/\s+/g, ' '), languageCode)} — ${speaker}, [${timeInRecording(ms)}]${by}`;
}
