/**
 * The gateway injects the transcript as plain text, so a model can only guess when something
 * was said. Quotes and claims are matched back to the local sentences, and a match's real start
 * replaces the guess: the times in a key-quotes list then seek to the right moment.
 */

export interface TimedSentence {
  startMs: number;
  text: string;
}

interface TimedItem {
  start_ms: number;
}

/** The words that identify a quote: the first few, folded. */
const wordsToMatch = 8;

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function alignTimes<T extends TimedItem>(
  items: T[],
  textOf: (item: T) => string,
  sentences: TimedSentence[],
): T[] {
  const folded = sentences.map((sentence) => ({ startMs: sentence.startMs, text: fold(sentence.text) }));
  return items.map((item) => {
    const words = fold(textOf(item)).split(' ').filter(Boolean);
    if (words.length === 0) return item;
    const head = words.slice(0, wordsToMatch).join(' ');
    const whole = words.join(' ');
    const match = folded.find(
      (sentence) =>
        sentence.text.includes(head) || (sentence.text.length > 0 && whole.includes(sentence.text)),
    );
    return match ? { ...item, start_ms: match.startMs } : item;
  });
}
