import type { CompletedTranscript, SegmentInput } from '../src/main/core/library/library';

/**
 * What the corrections bench needs on top of the generated transcript (bench/fixtures.ts):
 * words that carry their sentence's full stop as the service's do, a misheard name planted a
 * known number of times, the speaker turns as the reader shows them, and a turn retyped with
 * one word changed, as the inline editor would send it.
 */

/**
 * The same transcript with each sentence's full stop on its last word, as the service writes
 * words ("budget."), so a sentence's text is its words joined by spaces. The generator leaves
 * the stop off the words; a corrected sentence is rebuilt from its words and would lose it.
 */
export function withPunctuatedWords(completed: CompletedTranscript): CompletedTranscript {
  const copy = structuredClone(completed);
  for (const sentence of copy.sentences) {
    const last = sentence.words?.at(-1);
    const stop = /[.?!]$/.exec(sentence.text)?.[0];
    if (last && stop && !last.text.endsWith(stop)) last.text += stop;
  }
  // structuredClone keeps the paragraphs' words the same objects as the sentences' words.
  for (const paragraph of copy.paragraphs) paragraph.text = textOf(paragraph);
  return copy;
}

/**
 * The transcript with `name` as one word of `occurrences` sentences spread evenly over it (one
 * a sentence, the word in the middle of it), in place of the word that was there, with its
 * full stop kept. Throws if the name is already in it (the count would be wrong) or there are
 * fewer sentences than occurrences.
 */
export function plantName(
  completed: CompletedTranscript,
  name: string,
  occurrences: number,
): CompletedTranscript {
  if (occurrences > completed.sentences.length)
    throw new Error(
      `${occurrences} occurrences need as many sentences; there are ${completed.sentences.length}`,
    );
  if (completed.sentences.some((sentence) => sentence.words?.some((word) => word.text.includes(name))))
    throw new Error(`"${name}" is already in the transcript`);
  const copy = structuredClone(completed);
  for (let occurrence = 0; occurrence < occurrences; occurrence++) {
    const sentence = copy.sentences[Math.floor((occurrence * copy.sentences.length) / occurrences)]!;
    const words = sentence.words ?? [];
    const word = words[Math.floor(words.length / 2)];
    if (!word) throw new Error('a sentence without words');
    word.text = `${name}${/[.?!,]$/.exec(word.text)?.[0] ?? ''}`;
    sentence.text = textOf(sentence);
  }
  for (const paragraph of copy.paragraphs) paragraph.text = textOf(paragraph);
  return copy;
}

function textOf(segment: SegmentInput): string {
  return (segment.words ?? []).map((word) => word.text).join(' ');
}

/** A speaker turn as the reader shows it: consecutive sentences by the same speaker. */
export interface TurnSpan {
  from: number;
  count: number;
}

export function turnsOf(sentences: readonly { speaker?: string | null }[]): TurnSpan[] {
  const turns: TurnSpan[] = [];
  sentences.forEach((sentence, position) => {
    const last = turns.at(-1);
    if (last && sentences[position - 1]?.speaker === sentence.speaker) last.count++;
    else turns.push({ from: position, count: 1 });
  });
  return turns;
}

/** A turn retyped with one word changed, and where that word is. */
export interface OneWordFix {
  /** The turn's text as the editor commits it. */
  text: string;
  /** The sentence of the turn the word is in (0 is the turn's first) and its index there. */
  sentence: number;
  word: number;
  /** The word as it was, and as typed (with the old word's punctuation). */
  replaced: string;
  typed: string;
}

/**
 * The turn's text as the inline editor commits it (its words joined by spaces) with one word
 * replaced by `replacement`, keeping the word's punctuation: the word at `wordIndex` (taken
 * modulo the turn's length), the middle one by default.
 */
export function retypedWithOneWord(
  turn: readonly { words: readonly { text: string }[] }[],
  replacement: string,
  wordIndex?: number,
): OneWordFix {
  const words = turn.flatMap((sentence, index) =>
    sentence.words.map((word, inSentence) => ({ word: word.text, index, inSentence })),
  );
  const chosen =
    wordIndex === undefined ? Math.floor(words.length / 2) : wordIndex % Math.max(1, words.length);
  const target = words[chosen];
  if (!target) throw new Error('a turn without words');
  const typed = `${replacement}${/[.?!,]$/.exec(target.word)?.[0] ?? ''}`;
  const text = words.map(({ word }, index) => (index === chosen ? typed : word)).join(' ');
  return { text, sentence: target.index, word: target.inSentence, replaced: target.word, typed };
}
