import type { EditIntent } from '../../../shared/corrections/corrections';
import { findPattern } from '../../../shared/corrections/edit-plan';
import type { Segment } from '../../../shared/library';
import type { FindMatch, ReaderModel } from './reader-model';

/** Whole word and match case, as the find bar's toggles set them. */
export interface FindOptions {
  wholeWord: boolean;
  matchCase: boolean;
}

export const defaultFindOptions: FindOptions = { wholeWord: false, matchCase: false };

/** A find match in the reader, with where main would find the same match to replace it. */
export interface SentenceMatch extends FindMatch {
  /** The sentence's position in the transcript. */
  position: number;
  /** The n-th match inside that sentence (0-based), as main counts them for `at`. */
  occurrence: number;
  /** Where the match starts and ends in the sentence's words joined by single spaces. */
  start: number;
  end: number;
}

/**
 * Every match of `query`, in reading order, found sentence by sentence with main's own
 * expression over the same text main searches (each sentence's words joined by single spaces).
 * So the count the journalist reads is the number "Replace all" replaces, and the n-th match
 * of a sentence here is the n-th main replaces with `at`. A phrase that runs across two
 * sentences is therefore not a match: main could not replace it either.
 */
/**
 * What an empty query finds, the same array every time: the reader's words read the matches, and
 * a new empty array on each correction would have every word on screen checked again (issue #33).
 */
const noMatches: SentenceMatch[] = [];

export function sentenceMatches(
  sentences: readonly Segment[],
  model: ReaderModel,
  query: string,
  options: FindOptions,
): SentenceMatch[] {
  if (!query.trim()) return noMatches;
  const pattern = findPattern(query, options);
  const matches: SentenceMatch[] = [];
  // Words are numbered in sentence order by buildModel, so a sentence's first word is a running sum.
  let firstWord = 0;
  for (const sentence of sentences) {
    const offsets: number[] = [];
    let shown = '';
    for (const word of sentence.words) {
      offsets.push(shown.length === 0 ? 0 : shown.length + 1);
      shown = shown.length === 0 ? word.text : `${shown} ${word.text}`;
    }
    let occurrence = 0;
    for (const found of shown.matchAll(pattern)) {
      const start = found.index;
      const end = start + found[0].length;
      const words: number[] = [];
      sentence.words.forEach((word, i) => {
        const from = offsets[i] ?? 0;
        if (from < end && from + word.text.length > start) words.push(firstWord + i);
      });
      const turn = model.turnOf[words[0] ?? firstWord] ?? 0;
      matches.push({ turn, words, position: sentence.position, occurrence, start, end });
      occurrence++;
    }
    firstWord += sentence.words.length;
  }
  return matches;
}

export type ReplaceIntent = Extract<EditIntent, { kind: 'replace' }>;

/** The edit that replaces one match (with its `at`) or, without a match, every occurrence. */
export function replaceIntent(
  query: string,
  replacement: string,
  options: FindOptions,
  match?: Pick<SentenceMatch, 'position' | 'occurrence'>,
): ReplaceIntent {
  return {
    kind: 'replace',
    find: query,
    replacement,
    wholeWord: options.wholeWord,
    matchCase: options.matchCase,
    ...(match ? { at: { position: match.position, occurrence: match.occurrence } } : {}),
  };
}

/**
 * The match to show after one was replaced: the first one after the replacement's words, so a
 * replacement that still contains what was found ("Brenan" by "Brenann") is not found again.
 * Wraps to the first match; -1 when none is left.
 */
export function matchAfterReplace(
  matches: readonly Pick<SentenceMatch, 'position' | 'start'>[],
  replaced: Pick<SentenceMatch, 'position' | 'start'>,
  replacementLength: number,
): number {
  if (matches.length === 0) return -1;
  const after = matches.findIndex(
    (match) =>
      match.position > replaced.position ||
      (match.position === replaced.position && match.start >= replaced.start + replacementLength),
  );
  return after < 0 ? 0 : after;
}

/** What the journalist reads after a replace: how many, and how to take it back. */
export function replacedMessage(replaced: number, undoKey: string): string {
  if (replaced === 0) return 'Nothing was replaced: no match is left.';
  const what = replaced === 1 ? '1 occurrence' : `${replaced.toLocaleString('en-US')} occurrences`;
  return `Replaced ${what} — Undo with ${undoKey}`;
}
