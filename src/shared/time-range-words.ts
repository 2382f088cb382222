/**
 * The one rule for turning a time range into words, wherever a time becomes a selection: a
 * highlight made on the command line (`highlight --from --to`) or in the reader, the words the
 * reader paints for a highlight, `export --range` and a recording's marks.
 *
 * 1. A word belongs to a range when most of it is inside: a range starts at the first word that
 *    starts at or after its start, a word it cuts into being left out unless more than half of
 *    it is inside, and it ends the same way. A quote never gains a word that was mostly spoken
 *    outside the range it was asked for.
 * 2. A typed time stands for every moment printed as it: `show`, exports and citations print a
 *    sentence's start cut to whole seconds, so 00:00:37 may mean 37.744 s. Within that window a
 *    sentence's start is what the time means (the first one, if two begin in it), else a
 *    sentence's end (the last one); a window with no boundary is the time itself. So a time
 *    printed before a sentence, given back, starts exactly at that sentence, and the printed
 *    time of the next one ends exactly before it.
 */

/** A span of a recording, in milliseconds. */
export interface TimeRange {
  startMs: number;
  endMs: number;
}

/** A word's timing, as the service gives it (milliseconds). */
export interface TimedWord {
  start: number;
  end: number;
}

/**
 * A time typed by a person: its milliseconds and how finely it was written (1000 for 00:00:37,
 * 100 for 37.5), so it stands for every moment from `ms` up to `ms + precisionMs`.
 */
export interface TypedTime {
  ms: number;
  precisionMs: number;
}

/** A word lasts at least a millisecond, so a word the service timed as an instant still has an inside. */
function wordEnd(word: TimedWord): number {
  return Math.max(word.end, word.start + 1);
}

/** Rule 1: more than half of the word is inside the range. */
export function wordIsInRange(word: TimedWord, range: TimeRange): boolean {
  const end = wordEnd(word);
  const inside = Math.min(end, range.endMs) - Math.max(word.start, range.startMs);
  return inside * 2 > end - word.start;
}

/** The words of a range, in the order given. */
export function wordsInRange<W extends TimedWord>(words: readonly W[], range: TimeRange): W[] {
  return words.filter((word) => wordIsInRange(word, range));
}

/**
 * The span that holds these words whole, on whole milliseconds (what a selection in the reader
 * is sent as). Undefined without words.
 */
export function spanOfWords(words: readonly TimedWord[]): TimeRange | undefined {
  if (words.length === 0) return undefined;
  let start = Infinity;
  let end = -Infinity;
  for (const word of words) {
    start = Math.min(start, word.start);
    end = Math.max(end, wordEnd(word));
  }
  return { startMs: Math.floor(start), endMs: Math.ceil(end) };
}

/**
 * The words of a range (by rule 1, among `words`: all those that could be near it) and the span
 * they are kept as, which rule 1 maps back to exactly them, so a stored highlight keeps its
 * words: their whole span, or, where words spoken over them would then count too, the part of
 * it inside the range. Undefined when no word is in the range.
 */
export function selectWords<W extends TimedWord>(
  words: readonly W[],
  range: TimeRange,
): { words: W[]; span: TimeRange } | undefined {
  const selected = wordsInRange(words, range);
  const whole = spanOfWords(selected);
  if (!whole) return undefined;
  const chosen = new Set<TimedWord>(selected);
  const widens = words.some((word) => !chosen.has(word) && wordIsInRange(word, whole));
  const span = widens
    ? { startMs: Math.max(whole.startMs, range.startMs), endMs: Math.min(whole.endMs, range.endMs) }
    : whole;
  return { words: selected, span };
}

/** Rule 2: the moment a typed time means in a transcript of these sentences. */
export function typedTimeMs(sentences: readonly TimeRange[], typed: TypedTime): number {
  const windowEnd = typed.ms + Math.max(1, typed.precisionMs);
  const inWindow = (ms: number): boolean => ms >= typed.ms && ms < windowEnd;
  let firstStart: number | undefined;
  let lastEnd: number | undefined;
  for (const sentence of sentences) {
    if (inWindow(sentence.startMs) && (firstStart === undefined || sentence.startMs < firstStart))
      firstStart = sentence.startMs;
    if (inWindow(sentence.endMs) && (lastEnd === undefined || sentence.endMs > lastEnd))
      lastEnd = sentence.endMs;
  }
  return firstStart ?? lastEnd ?? typed.ms;
}

/** The range two typed times mean; it may be empty (end at or before start) when they share a window. */
export function rangeOfTypedTimes(
  sentences: readonly TimeRange[],
  from: TypedTime,
  to: TypedTime,
): TimeRange {
  return { startMs: typedTimeMs(sentences, from), endMs: typedTimeMs(sentences, to) };
}

/**
 * The sentences a range takes whole: each with a word in it by rule 1 (a sentence without
 * words counts as one word spanning it), in the order given.
 */
export function sentencesInRange<S extends TimeRange & { words: readonly TimedWord[] }>(
  sentences: readonly S[],
  range: TimeRange,
): S[] {
  return sentences.filter((sentence) =>
    sentence.words.length > 0
      ? sentence.words.some((word) => wordIsInRange(word, range))
      : wordIsInRange({ start: sentence.startMs, end: sentence.endMs }, range),
  );
}

/** A sentence's words' span (the sentence's own span when it has no words). */
export function sentenceSpan(sentence: TimeRange & { words: readonly TimedWord[] }): TimeRange {
  return spanOfWords(sentence.words) ?? { startMs: sentence.startMs, endMs: sentence.endMs };
}

/**
 * The sentence spoken at `atMs`, or else the one that ended last before it, if it ended at most
 * `reachBackMs` before; undefined in a longer silence. Whose words a mark pressed then means.
 */
export function sentenceSpokenAt<S extends TimeRange>(
  sentences: readonly S[],
  atMs: number,
  reachBackMs: number,
): S | undefined {
  let before: S | undefined;
  for (const sentence of sentences) {
    if (sentence.startMs <= atMs && atMs < sentence.endMs) return sentence;
    if (sentence.endMs <= atMs && (!before || sentence.endMs > before.endMs)) before = sentence;
  }
  return before && atMs - before.endMs <= reachBackMs ? before : undefined;
}
