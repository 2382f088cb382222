/**
 * Word search as the real service documents it: each search term is a word, number or
 * phrase of up to five words, matched case-insensitively against consecutive transcript
 * words, ignoring punctuation around them.
 */

export const MAX_WORDS_PER_SEARCH_TERM = 5;

export interface SearchableWord {
  text: string;
  start: number;
  end: number;
}

export interface WordSearchMatch {
  text: string;
  count: number;
  /** [start, end] in ms of each occurrence. */
  timestamps: [number, number][];
  /** Index in the transcript's words of each occurrence's first word. */
  indexes: number[];
}

function normalize(word: string): string {
  return word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

export function termsOf(wordsParameter: string): string[] {
  return wordsParameter
    .split(',')
    .map((term) => term.trim())
    .filter(Boolean);
}

export function searchWords(words: readonly SearchableWord[], terms: readonly string[]): WordSearchMatch[] {
  const normalized = words.map((word) => normalize(word.text));
  return terms.map((term) => {
    const wanted = term.split(/\s+/).map(normalize);
    const match: WordSearchMatch = { text: term, count: 0, timestamps: [], indexes: [] };
    for (let index = 0; index + wanted.length <= words.length; index += 1) {
      if (!wanted.every((part, offset) => normalized[index + offset] === part)) continue;
      match.count += 1;
      match.timestamps.push([words[index]!.start, words[index + wanted.length - 1]!.end]);
      match.indexes.push(index);
    }
    return match;
  });
}
