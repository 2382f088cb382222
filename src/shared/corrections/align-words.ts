import { diffArrays } from 'diff';
import type { Word } from '../library';

/** A word of the corrected text and the sentence (an index into the edited range) it belongs to. */
export interface AlignedWord {
  word: Word;
  sentence: number;
}

/** A word as it was, with the sentence of the edited range it came from. */
export interface PlacedWord {
  word: Word;
  sentence: number;
}

/** The words a journalist typed, as the reader shows them: split on any run of white space. */
export function tokenize(text: string): string[] {
  return text.split(/\s+/u).filter((token) => token.length > 0);
}

/**
 * Aligns corrected text to the words it replaces, so timings survive an edit. jsdiff's array
 * diff finds the words left as they were; those keep their times, confidence and speaker. A
 * run of typed words that replaces a run of old words takes the old run's time span, shared in
 * proportion to each new word's length; typed words with nothing removed share the gap
 * between their neighbours; removed words go. A run replaced by as many words is matched word
 * for word instead, which keeps exact times when only spelling or punctuation changed. Typed words have confidence 1 and are marked
 * `corrected`. `fallback` is the time span to use when the range had no words at all.
 */
export function alignWords(
  original: readonly PlacedWord[],
  text: string,
  fallback: { startMs: number; endMs: number; sentence: number },
): AlignedWord[] {
  const tokens = tokenize(text);
  const parts = diffArrays(
    original.map((placed) => placed.word.text),
    tokens,
  );
  const aligned: AlignedWord[] = [];
  let oldIndex = 0;
  let removed: PlacedWord[] = [];
  let added: string[] = [];

  const flush = (): void => {
    if (added.length > 0) {
      if (removed.length > 0) aligned.push(...replaceRun(removed, added));
      else aligned.push(...insertRun(added, aligned.at(-1), original[oldIndex], fallback));
    }
    removed = [];
    added = [];
  };

  for (const part of parts) {
    if (part.added) added.push(...part.value);
    else if (part.removed) {
      removed.push(...original.slice(oldIndex, oldIndex + part.count));
      oldIndex += part.count;
    } else {
      flush();
      for (let i = 0; i < part.count; i++) {
        const kept = original[oldIndex++] as PlacedWord;
        aligned.push({ word: kept.word, sentence: kept.sentence });
      }
    }
  }
  flush();
  return aligned;
}

/** New words over the time span of the words they replace, each in the sentence it falls in. */
function replaceRun(removed: PlacedWord[], added: string[]): AlignedWord[] {
  // As many words as before (capitals, punctuation, a misheard word each): word for word, so
  // each keeps the exact time and sentence of the word it corrects.
  if (removed.length === added.length)
    return removed.map((old, i) => ({
      word: typedWord(added[i] as string, old.word, old.word.speaker),
      sentence: old.sentence,
    }));
  const first = removed[0] as PlacedWord;
  const last = removed.at(-1) as PlacedWord;
  const spans = shareSpan(first.word.start, Math.max(first.word.start, last.word.end), added);
  return added.map((text, i) => {
    const span = spans[i] as { start: number; end: number };
    const middle = (span.start + span.end) / 2;
    // The sentence of the last replaced word that starts at or before the new word's middle.
    let home = first;
    for (const candidate of removed) if (candidate.word.start <= middle) home = candidate;
    return { word: typedWord(text, span, home.word.speaker), sentence: home.sentence };
  });
}

/** New words in the gap between the words kept either side of them. */
function insertRun(
  added: string[],
  before: AlignedWord | undefined,
  after: PlacedWord | undefined,
  fallback: { startMs: number; endMs: number; sentence: number },
): AlignedWord[] {
  const start = before?.word.end ?? after?.word.start ?? fallback.startMs;
  const end = Math.max(start, after?.word.start ?? before?.word.end ?? fallback.endMs);
  const sentence = before?.sentence ?? after?.sentence ?? fallback.sentence;
  const speaker = (before ?? after)?.word.speaker;
  return shareSpan(start, end, added).map((span, i) => ({
    word: typedWord(added[i] as string, span, speaker),
    sentence,
  }));
}

/** Splits [start, end] across the words in proportion to their length, in whole milliseconds. */
function shareSpan(start: number, end: number, texts: string[]): { start: number; end: number }[] {
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  let consumed = 0;
  return texts.map((text) => {
    const from = start + Math.round(((end - start) * consumed) / total);
    consumed += text.length;
    const to = start + Math.round(((end - start) * consumed) / total);
    return { start: from, end: to };
  });
}

function typedWord(
  text: string,
  span: { start: number; end: number },
  speaker: string | null | undefined,
): Word {
  const word: Word = { text, start: span.start, end: span.end, confidence: 1, corrected: true };
  if (speaker !== undefined) word.speaker = speaker;
  return word;
}
