import type { DetectedEntity } from './entities';
import type { Timestamp, Word } from './types';

/**
 * PII redaction of the transcript's words. Only the characters of the entity are replaced, word by
 * word, so punctuation around it stays and the words keep their timings (and stay one-to-one with
 * unredacted_words): `entity_name` puts "[PERSON_NAME]" in place of each word's part of the entity,
 * `hash` turns each of its letters and digits into "#" ("555-0142" → "###-####"), as the real service
 * documents. Like the real service, only text, words and utterances are redacted; other analyses are
 * not (its docs warn that entities and summaries may still contain PII).
 */

export type PiiSubstitution = 'entity_name' | 'hash';

export function redactWords(
  words: readonly Word[],
  entities: readonly DetectedEntity[],
  substitution: PiiSubstitution,
): Word[] {
  const redacted = words.map((word) => ({ ...word }));
  // Per word, the character ranges to replace; applied right to left so earlier offsets stay valid.
  const cuts = new Map<number, { from: number; to: number; type: string }[]>();
  let wordIndex = 0;
  let wordStart = 0;
  for (const entity of entities) {
    while (
      wordIndex < words.length &&
      wordStart + (words[wordIndex] as Word).text.length <= entity.charStart
    ) {
      wordStart += (words[wordIndex] as Word).text.length + 1;
      wordIndex++;
    }
    let index = wordIndex;
    let start = wordStart;
    while (index < words.length && start < entity.charEnd) {
      const length = (words[index] as Word).text.length;
      const from = Math.max(entity.charStart, start) - start;
      const to = Math.min(entity.charEnd, start + length) - start;
      if (to > from) cuts.set(index, [...(cuts.get(index) ?? []), { from, to, type: entity.entity_type }]);
      start += length + 1;
      index++;
    }
  }
  for (const [index, ranges] of cuts) {
    const word = redacted[index] as Word;
    for (const { from, to, type } of ranges.sort((a, b) => b.from - a.from)) {
      const part = word.text.slice(from, to);
      const replacement =
        substitution === 'hash' ? part.replace(/[\p{L}\p{N}]/gu, '#') : `[${type.toUpperCase()}]`;
      word.text = word.text.slice(0, from) + replacement + word.text.slice(to);
    }
  }
  return redacted;
}

/** Whether a transcript word was (partly) redacted, by either substitution. */
function isRedactedWord(text: string): boolean {
  return /\[[A-Z_]+\]/.test(text) || (text.includes('#') && !/[\p{L}\p{N}]/u.test(text));
}

/** The time spans of the redacted words, adjacent ones merged. */
export function redactedSpans(words: readonly Word[]): Timestamp[] {
  const spans: Timestamp[] = [];
  for (const word of words) {
    if (!isRedactedWord(word.text)) continue;
    const last = spans[spans.length - 1];
    if (last !== undefined && word.start <= last.end) last.end = Math.max(last.end, word.end);
    else spans.push({ start: word.start, end: word.end });
  }
  return spans;
}
