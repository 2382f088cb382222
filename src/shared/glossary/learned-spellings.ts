import { diffArrays, diffChars } from 'diff';
import type { SentenceChange } from '../corrections/corrections';

/**
 * "Add to glossary" after a correction (issue #21): the respellings a journalist just typed,
 * each with the form the service had heard, so the reader can offer to keep it for every
 * transcription to come. A respelling is a run of at most three words typed over a run of at
 * most five (custom spelling's `from` limit), aligned word by word with jsdiff as corrections
 * are, that looks like a name or a misheard word: it has a capital letter, or its letters are
 * mostly those of what it replaced. Punctuation around words does not count, nor does a change
 * of case alone, nor what a glossary spells already (`known`, compared ignoring case).
 */
export interface LearnedSpelling {
  spelling: string;
  misheard: string;
}

const maxSpellingWords = 3;
const maxMisheardWords = 5;

function bare(word: string): string {
  return word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/** How alike two words are, 0 to 1: the letters they share in order (jsdiff), over the longer one's. */
export function similarity(a: string, b: string): number {
  const x = a.toLocaleLowerCase();
  const y = b.toLocaleLowerCase();
  if (x === y) return 1;
  const shared = diffChars(x, y)
    .filter((part) => !part.added && !part.removed)
    .reduce((sum, part) => sum + part.value.length, 0);
  return shared / Math.max(x.length, y.length);
}

export function learnedSpellings(
  changes: readonly SentenceChange[],
  known: ReadonlySet<string> = new Set(),
): LearnedSpelling[] {
  const before = changes.flatMap((change) =>
    change.removed.flatMap((sentence) => sentence.words.map((w) => w.text)),
  );
  const after = changes.flatMap((change) =>
    change.inserted.flatMap((sentence) => sentence.words.map((w) => w.text)),
  );
  return learnedFromWords(before, after, known);
}

/** The same from a run of words as it was and as it is now (a turn before and after typing). */
export function learnedFromWords(
  before: readonly string[],
  after: readonly string[],
  known: ReadonlySet<string> = new Set(),
): LearnedSpelling[] {
  const parts = diffArrays(before.map(bare), after.map(bare));
  const learned: LearnedSpelling[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const next = parts[index + 1];
    if (!part.removed || !next?.added) continue;
    index++;
    const misheard = part.value.filter(Boolean).join(' ');
    const spelling = next.value.filter(Boolean).join(' ');
    if (!misheard || !spelling) continue;
    if (part.value.length > maxMisheardWords || next.value.length > maxSpellingWords) continue;
    if (misheard.toLocaleLowerCase() === spelling.toLocaleLowerCase()) continue;
    if (known.has(spelling.toLocaleLowerCase())) continue;
    const looksLikeAName = /\p{Lu}/u.test(spelling);
    const misheardLetters = similarity(misheard.replace(/\s+/g, ''), spelling.replace(/\s+/g, '')) >= 0.6;
    if (!looksLikeAName && !misheardLetters) continue;
    if (!learned.some((known) => known.spelling === spelling && known.misheard === misheard))
      learned.push({ spelling, misheard });
  }
  return learned;
}
