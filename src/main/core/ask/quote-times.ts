/**
 * The gateway injects the transcript as plain text, so a model can only guess when something
 * was said, and by whom. Quotes and claims are matched back to the local sentences, and a
 * match's real start and speaker (as the reporter named them) replace the guesses: the times in
 * a key-quotes list then seek to the right moment, and a quote is never attributed to the wrong
 * person because the model misread a speaker label.
 */

export interface TimedSentence {
  startMs: number;
  text: string;
  /** The speaker's display name, where the transcript has speaker labels. */
  speaker?: string | null | undefined;
}

interface TimedItem {
  start_ms: number;
  speaker?: string;
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
  const folded = sentences.map((sentence) => ({ ...sentence, text: fold(sentence.text) }));
  return items.map((item) => {
    const words = fold(textOf(item)).split(' ').filter(Boolean);
    if (words.length === 0) return item;
    const head = words.slice(0, wordsToMatch).join(' ');
    const whole = words.join(' ');
    const match = folded.find(
      (sentence) =>
        sentence.text.includes(head) || (sentence.text.length > 0 && whole.includes(sentence.text)),
    );
    if (!match) return item;
    return match.speaker
      ? { ...item, start_ms: match.startMs, speaker: match.speaker }
      : { ...item, start_ms: match.startMs };
  });
}
