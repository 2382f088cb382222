/** A lexicon written as one space-separated string: compact to read, a Set to look words up in. */
export function wordSet(words: string): ReadonlySet<string> {
  return new Set(words.trim().split(/\s+/));
}
