import { findPattern, textWithSpans } from '../corrections/edit-plan';
import { glossaryWordPattern, glossaryWords, type GlossaryEntry } from './glossary';

/**
 * Where "Apply glossary" may fix a sentence (issue #31): every whole-word match of a misheard
 * form (ignoring case, as find and replace matches), less each place where the fix would write
 * a name twice:
 * - the text there already reads an entry's spelling, or more of it than the form: the form
 *   "Northwind" inside "Northwind Ferries" (or "Northwind Ferries Group"), "Hassan" inside
 *   "Al-Hassan", or "Northwind" inside "Northwind Air" when another entry spells that;
 * - with the other fixes made, a run of a spelling's words would stand twice in a row, taking in
 *   words of this fix and words beside it ("Bren Brenan" would read "Brennan Brennan", "Anne
 *   Smith" fixed to "Ann Smith" would read "Ann Smith Smith"), unless the text already said them
 *   twice ("Brenan, Brenan" is two fixes);
 * - with the other fixes made, the sentence would have a new place to fix next to it: applying
 *   the same glossary again must change nothing.
 * Words are compared as glossaryWords compares them: "Al-Hassan" is al, hassan.
 */

/** A place a misheard form matched, before it is judged. */
export interface FixPlace {
  entry: GlossaryEntry;
  find: string;
  /** Which match of `find` in the sentence, counting from 0, as the `fixes` edit intent names it. */
  occurrence: number;
  replacement: string;
  start: number;
  end: number;
  /** The words matched, as the text had them. */
  match: string;
}

/** An entry as the places are judged by: its spelling's words and its forms' patterns. */
export interface Spelling {
  entry: GlossaryEntry;
  words: string[];
  forms: { form: string; pattern: RegExp }[];
}

interface WordRun {
  text: string;
  start: number;
  end: number;
}

function wordRuns(text: string): WordRun[] {
  const runs: WordRun[] = [];
  for (const match of text.matchAll(glossaryWordPattern))
    runs.push({ text: match[0].toLocaleLowerCase(), start: match.index, end: match.index + match[0].length });
  return runs;
}

export function spellingsOf(entries: readonly GlossaryEntry[]): Spelling[] {
  return entries.map((entry) => ({
    entry,
    words: glossaryWords(entry.term),
    forms: [...new Set(entry.misheard.map((form) => form.trim()).filter(Boolean))].map((form) => ({
      form,
      pattern: findPattern(form, { wholeWord: true }),
    })),
  }));
}

/** The places to fix in one sentence's text (its words joined by spaces), in reading order. */
export function fixPlaces(shown: string, spellings: readonly Spelling[]): FixPlace[] {
  let kept = withoutDoubling(shown, candidatesIn(shown, spellings), spellings);
  while (kept.length > 0) {
    const { text, placed } = textWithSpans(shown, kept.map(asSpan));
    const again = withoutDoubling(text, candidatesIn(text, spellings), spellings);
    if (again.length === 0) break;
    const near = new Set(
      placed.filter((made) => again.some((next) => touches(text, next, made.after))).map((made) => made.fix),
    );
    if (near.size === 0) break;
    kept = withoutDoubling(
      shown,
      kept.filter((place) => !near.has(place)),
      spellings,
    );
  }
  return kept;
}

const asSpan = (place: FixPlace) => ({ fix: place, start: place.start, end: place.end });

/** Whether two stretches of a text overlap or have no word between them. */
function touches(
  text: string,
  a: { start: number; end: number },
  b: { start: number; end: number },
): boolean {
  if (a.start < b.end && b.start < a.end) return true;
  const gap = a.end <= b.start ? text.slice(a.end, b.start) : text.slice(b.end, a.start);
  return glossaryWords(gap).length === 0;
}

/** Every match of a misheard form, less those where the text already reads a spelling. */
function candidatesIn(shown: string, spellings: readonly Spelling[]): FixPlace[] {
  let runs: WordRun[] | undefined;
  const places: FixPlace[] = [];
  for (const spelling of spellings)
    for (const { form, pattern } of spelling.forms) {
      let occurrence = 0;
      for (const match of shown.matchAll(pattern)) {
        const start = match.index;
        const end = start + match[0].length;
        const place = { entry: spelling.entry, find: form, occurrence: occurrence++, start, end };
        // Already spelled right (a form that differs from the spelling only in case).
        if (match[0] === spelling.entry.term) continue;
        runs ??= wordRuns(shown);
        if (readsSpelling(runs, start, end, spelling, spellings)) continue;
        places.push({ ...place, replacement: spelling.entry.term, match: match[0] });
      }
    }
  // In reading order; at one place, in the order of the entries (the planner makes the first).
  return places.sort((a, b) => a.start - b.start);
}

/**
 * Whether the words at a match already read an entry's spelling: the matched words are part of
 * a spelling and the word before or after them is that spelling's word there too, or they are
 * the whole of another entry's spelling.
 */
function readsSpelling(
  runs: readonly WordRun[],
  start: number,
  end: number,
  fixing: Spelling,
  spellings: readonly Spelling[],
): boolean {
  const first = runs.findIndex((run) => run.start >= start);
  if (first < 0) return false;
  let after = first;
  while (after < runs.length && runs[after]!.end <= end) after++;
  const count = after - first;
  if (count === 0) return false;
  const before = runs[first - 1]?.text;
  const next = runs[after]?.text;
  for (const { words } of spellings)
    for (let at = 0; at + count <= words.length; at++) {
      let same = true;
      for (let index = 0; same && index < count; index++)
        same = words[at + index] === runs[first + index]!.text;
      if (!same) continue;
      if (count === words.length) {
        if (!sameWords(words, fixing.words)) return true;
        continue;
      }
      if (at > 0 && before === words[at - 1]) return true;
      if (at + count < words.length && next === words[at + count]) return true;
    }
  return false;
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, index) => word === b[index]);
}

/** The candidates less every one that writes a name twice, until none does. */
function withoutDoubling(
  shown: string,
  candidates: readonly FixPlace[],
  spellings: readonly Spelling[],
): FixPlace[] {
  let kept = [...candidates];
  while (kept.length > 0) {
    const doubling = doublingPlaces(shown, kept, spellings);
    if (doubling.size === 0) break;
    kept = kept.filter((place) => !doubling.has(place));
  }
  return kept;
}

/** Where a word of the text after the fixes comes from: the text as it was, or a fix. */
type Origin = { fix?: undefined; word: string } | { fix: FixPlace };

/**
 * The places whose spelling, once written with the others, stands beside the same words: a run
 * X written twice in a row, taking in words of the replacement and words beside it, where X is
 * (part of) a spelling and the text before the fixes did not already say it twice.
 */
function doublingPlaces(
  shown: string,
  places: readonly FixPlace[],
  spellings: readonly Spelling[],
): Set<FixPlace> {
  const { text, placed } = textWithSpans(shown, places.map(asSpan));
  const words: string[] = [];
  const origins: Origin[] = [];
  const replaced = new Map<FixPlace, { first: number; end: number }>();
  let from = 0;
  const addText = (upTo: number): void => {
    for (const run of wordRuns(text.slice(from, upTo))) {
      words.push(run.text);
      origins.push({ word: run.text });
    }
  };
  for (const made of placed) {
    addText(made.after.start);
    const first = words.length;
    for (const run of wordRuns(made.fix.replacement)) {
      words.push(run.text);
      origins.push({ fix: made.fix });
    }
    replaced.set(made.fix, { first, end: words.length });
    from = made.after.end;
  }
  addText(text.length);

  const repeated = (at: number, length: number): boolean => {
    for (let index = 0; index < length; index++)
      if (words[at + index] !== words[at + length + index]) return false;
    return true;
  };
  const partOfSpelling = (at: number, length: number): boolean =>
    spellings.some(({ words: spelled }) => {
      for (let start = 0; start + length <= spelled.length; start++) {
        let same = true;
        for (let index = 0; same && index < length; index++)
          same = spelled[start + index] === words[at + index];
        if (same) return true;
      }
      return false;
    });
  const doubling = new Set<FixPlace>();
  for (const [place, { first, end }] of replaced) {
    if (first === end) continue;
    search: for (let length = 1; 2 * length <= words.length; length++)
      for (let at = Math.max(0, first - 2 * length + 1); at < end && at + 2 * length <= words.length; at++) {
        // With words of this replacement and words beside it.
        if (at >= first && at + 2 * length <= end) continue;
        if (!repeated(at, length) || !partOfSpelling(at, length)) continue;
        if (saidTwiceBefore(origins, at, length, replaced)) continue;
        doubling.add(place);
        break search;
      }
  }
  return doubling;
}

/** Whether the two halves of a repeated run come from the same words of the text before the fixes. */
function saidTwiceBefore(
  origins: readonly Origin[],
  at: number,
  length: number,
  replaced: ReadonlyMap<FixPlace, { first: number; end: number }>,
): boolean {
  const source = (from: number, to: number): string[] | undefined => {
    const said: string[] = [];
    for (let index = from; index < to; index++) {
      const origin = origins[index]!;
      if (origin.fix === undefined) {
        said.push(origin.word);
        continue;
      }
      const span = replaced.get(origin.fix)!;
      // A replacement cut by the half cannot be compared with what it replaced.
      if (span.first < from || span.end > to) return undefined;
      if (index === span.first) said.push(...glossaryWords(origin.fix.match));
    }
    return said;
  };
  const one = source(at, at + length);
  const two = source(at + length, at + 2 * length);
  return one !== undefined && two !== undefined && sameWords(one, two);
}
