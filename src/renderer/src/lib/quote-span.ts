import type { Segment } from '../../../shared/library';

/**
 * The time span of a quote the assistant extracted (Ask's key quotes and claims give its words
 * and where it starts, as matched to the transcript when the answer came): from the word at
 * `startMs`, as far as the quote's words go on matching the transcript's (ignoring case and
 * punctuation, a word or two the model dropped or changed allowed). A quote that does not match
 * from there is the sentence spoken at `startMs`: always a span of real words, never invented.
 */
export interface Span {
  startMs: number;
  endMs: number;
}

const bare = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
/** How many of the transcript's words the match may skip over in a row. */
const slack = 2;

export function quoteSpan(
  sentences: readonly Pick<Segment, 'startMs' | 'endMs' | 'words'>[],
  quote: string,
  startMs: number,
): Span | undefined {
  const words = sentences.flatMap((sentence) => sentence.words);
  const tokens = quote.split(/\s+/).map(bare).filter(Boolean);
  const first = words.findIndex((word) => word.end > startMs);
  if (first >= 0 && tokens.length > 0) {
    // The quote may begin a word or two around the time given.
    for (let begin = Math.max(0, first - slack); begin <= first + slack && begin < words.length; begin++) {
      if (bare(words[begin]!.text) !== tokens[0]) continue;
      let at = begin;
      let matched = 1;
      let last = begin;
      for (const token of tokens.slice(1)) {
        const found = words.slice(at + 1, at + 2 + slack).findIndex((word) => bare(word.text) === token);
        if (found < 0) continue;
        at += found + 1;
        last = at;
        matched++;
      }
      if (matched >= Math.ceil(tokens.length * 0.6))
        return { startMs: words[begin]!.start, endMs: words[last]!.end };
    }
  }
  const sentence =
    sentences.find((candidate) => candidate.startMs <= startMs && startMs < candidate.endMs) ??
    sentences.find((candidate) => candidate.endMs > startMs);
  return sentence ? { startMs: sentence.startMs, endMs: sentence.endMs } : undefined;
}
