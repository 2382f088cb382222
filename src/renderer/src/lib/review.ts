import type { ParagraphCheck } from '../../../shared/corrections/corrections';
import type { Segment } from '../../../shared/library';
import { paragraphAt } from '../../../shared/quote-check';
import { lowConfidence } from './reader-model';

/**
 * The review pass, as pure functions: which words still need a listen, which paragraph is
 * which, and how much is checked. A paragraph is the service's paragraph span; a sentence
 * belongs to the last paragraph that starts at or before it, as main's "revert this
 * paragraph" decides, so a stamp and a revert mean the same words.
 */

/** The same rule as a quote's check (shared/quote-check), so a stamp covers the same words in both. */
export { paragraphAt };

/**
 * The flat indexes (as the reader numbers words) of the words still to listen to: under the
 * reader's low-confidence mark, not typed or changed by the journalist, and not in a paragraph
 * stamped as checked against the audio. In reading order.
 */
export function uncertainWords(
  sentences: readonly Segment[],
  paragraphs: readonly Pick<Segment, 'startMs'>[],
  checks: readonly ParagraphCheck[],
): number[] {
  const checked = new Set(checks.map((check) => check.paragraph));
  const words: number[] = [];
  let index = 0;
  for (const sentence of sentences) {
    const skip = checked.size > 0 && checked.has(paragraphAt(paragraphs, sentence.startMs));
    for (const word of sentence.words) {
      if (!skip && word.confidence < lowConfidence && !word.corrected) words.push(index);
      index++;
    }
  }
  return words;
}

/**
 * The uncertain word after (1) or before (-1) the word `from` (a flat index; -1 before the
 * first word), or undefined when there is none that way. `words` is in reading order.
 */
export function stepUncertain(words: readonly number[], from: number, direction: 1 | -1): number | undefined {
  // The first word strictly after `from`, by binary search (30,000 words, pressed repeatedly).
  let low = 0;
  let high = words.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((words[mid] as number) <= from) low = mid + 1;
    else high = mid;
  }
  if (direction === 1) return words[low];
  // `low` is the first after `from`; the one before it may be `from` itself.
  let before = low - 1;
  if (before >= 0 && words[before] === from) before--;
  return before >= 0 ? words[before] : undefined;
}

export interface ReviewProgress {
  checked: number;
  total: number;
  /** Whole percent, rounded down so 19 of 20 never reads 100%. */
  percent: number;
  /** "7 of 20 paragraphs checked (35%)". */
  text: string;
  /** "Checked 7/20" for a tight line (the reader's header, a library row). */
  short: string;
}

export function reviewProgress(checked: number, total: number): ReviewProgress {
  const done = Math.min(Math.max(0, checked), Math.max(0, total));
  const percent = total > 0 ? Math.floor((done / total) * 100) : 0;
  const noun = total === 1 ? 'paragraph' : 'paragraphs';
  return {
    checked: done,
    total,
    percent,
    text:
      total === 0
        ? 'This transcript has no paragraphs to check.'
        : `${done} of ${total} ${noun} checked (${percent}%)`,
    short: total === 0 ? '' : done === total ? 'Fully checked' : `Checked ${done}/${total}`,
  };
}

/** True when a transcript has paragraphs and not every one is stamped: the library's filter. */
export function notFullyChecked(review: { checked: number; paragraphs: number }): boolean {
  return review.paragraphs > 0 && review.checked < review.paragraphs;
}

export interface ParagraphRow {
  paragraph: number;
  startMs: number;
  /** The paragraph's first words as the transcript now reads, to recognise it by. */
  opening: string;
  /** When it was stamped as checked against the audio, or null. */
  checkedAt: number | null;
  /** Who stamped it: null for the reporter; a colleague's login in a copy kept from the newsroom. */
  checkedBy: string | null;
}

/** One row per paragraph for the Review tab, with its opening words from the (corrected) sentences. */
export function paragraphRows(
  sentences: readonly Segment[],
  paragraphs: readonly Pick<Segment, 'startMs'>[],
  checks: readonly ParagraphCheck[],
  openingWords = 8,
): ParagraphRow[] {
  const stamps = new Map(checks.map((check) => [check.paragraph, check]));
  const openings: string[][] = paragraphs.map(() => []);
  for (const sentence of sentences) {
    const words = openings[paragraphAt(paragraphs, sentence.startMs)];
    if (!words || words.length >= openingWords) continue;
    for (const word of sentence.words) {
      if (words.length >= openingWords) break;
      words.push(word.text);
    }
  }
  return paragraphs.map((paragraph, index) => {
    const words = openings[index] ?? [];
    return {
      paragraph: index,
      startMs: paragraph.startMs,
      opening: words.length === 0 ? '(no words)' : `${words.join(' ')}…`,
      checkedAt: stamps.get(index)?.checkedAt ?? null,
      checkedBy: stamps.get(index)?.checkedBy ?? null,
    };
  });
}
