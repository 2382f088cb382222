import { wordSet } from './word-set';
import type { Word } from './types';

/**
 * The request options that rewrite words: disfluencies, punctuate, custom_spelling, filter_profanity
 * and format_text. Each takes and returns a word list; timings stay with the words they belong to.
 */

/** A word on its way through processing; `spelled` marks a custom spelling, which formatting leaves alone. */
export interface DraftWord extends Word {
  spelled?: boolean;
}

export interface CustomSpelling {
  from: string[];
  to: string;
}

const DISFLUENCIES = wordSet('um uh uhm umm hmm mm er erm ah');

/** Words the real service masks with filter_profanity (and content safety flags as profanity). */
export const PROFANITY = wordSet(
  'damn goddamn shit bullshit fuck fucking crap bastard bitch asshole piss bollocks',
);

const EDGE_PUNCTUATION = /^[.,!?;:"]+|[.,!?;:"]+$/g;

/** The word without surrounding punctuation, lower-cased: what matching compares. */
export function bareWord(text: string): string {
  return text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').toLowerCase();
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** disfluencies: false (the default) drops um/uh; a sentence that began with one starts at the next word. */
export function removeDisfluencies(words: readonly DraftWord[]): DraftWord[] {
  const kept: DraftWord[] = [];
  let capitalizeNext = false;
  for (const word of words) {
    if (DISFLUENCIES.has(bareWord(word.text))) {
      capitalizeNext ||= /^\p{Lu}/u.test(word.text);
      continue;
    }
    kept.push(capitalizeNext ? { ...word, text: capitalize(word.text) } : word);
    capitalizeNext = false;
  }
  return kept;
}

/** punctuate: false strips sentence punctuation around words (inside a word, as in an email, it stays). */
export function stripPunctuation(words: readonly DraftWord[]): DraftWord[] {
  return words
    .map((word) => ({ ...word, text: word.text.replace(EDGE_PUNCTUATION, '') }))
    .filter((word) => word.text.length > 0);
}

/** A word as spoken: its bare form without accents, so "Álvarez" is heard as "Alvarez" is. */
function heardAs(text: string): string {
  return bareWord(text).normalize('NFKD').replace(/\p{M}/gu, '');
}

/**
 * keyterms_prompt: a key term that is what was said (ignoring case and accents, word for word)
 * is written as the key term spells it, keeping the punctuation around each word. The real
 * service uses key terms to bias recognition towards their spelling; this makes that effect
 * visible and deterministic for tests (a glossary's "Álvarez" comes back as "Álvarez").
 * Longest phrase first; a word a key term spelled is left alone by formatting, like a custom spelling.
 */
export function applyKeyterms(words: readonly DraftWord[], keyterms: readonly string[]): DraftWord[] {
  const phrases = keyterms
    .map((term) => term.split(/\s+/).filter((token) => heardAs(token) !== ''))
    .filter((tokens) => tokens.length > 0)
    .sort((a, b) => b.length - a.length);
  if (phrases.length === 0) return [...words];
  const heard = words.map((word) => heardAs(word.text));
  const result = [...words];
  for (let index = 0; index < words.length;) {
    const match = phrases.find((tokens) =>
      tokens.every((token, offset) => heard[index + offset] === heardAs(token)),
    );
    if (match === undefined) {
      index++;
      continue;
    }
    match.forEach((token, offset) => {
      const word = words[index + offset] as DraftWord;
      const core = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u.exec(word.text);
      const spelled = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      result[index + offset] = {
        ...word,
        text: `${core?.[1] ?? ''}${spelled}${core?.[3] ?? ''}`,
        spelled: true,
      };
    });
    index += match.length;
  }
  return result;
}

/**
 * custom_spelling: each `from` phrase (case-insensitive, punctuation ignored) becomes the single word
 * `to`, exactly as written, keeping the punctuation that followed the phrase. Longest phrase first.
 */
export function applyCustomSpelling(
  words: readonly DraftWord[],
  spellings: readonly CustomSpelling[],
): DraftWord[] {
  const phrases = spellings
    .flatMap((spelling) =>
      spelling.from.map((from) => ({
        tokens: from.split(/\s+/).map(bareWord).filter(Boolean),
        to: spelling.to,
      })),
    )
    .filter((phrase) => phrase.tokens.length > 0)
    .sort((a, b) => b.tokens.length - a.tokens.length);
  if (phrases.length === 0) return [...words];
  const bare = words.map((word) => bareWord(word.text));
  const result: DraftWord[] = [];
  for (let index = 0; index < words.length;) {
    const match = phrases.find((phrase) =>
      phrase.tokens.every((token, offset) => bare[index + offset] === token),
    );
    if (match === undefined) {
      result.push(words[index] as DraftWord);
      index++;
      continue;
    }
    const matched = words.slice(index, index + match.tokens.length);
    const first = matched[0] as DraftWord;
    const last = matched[matched.length - 1] as DraftWord;
    const trailing = /[^\p{L}\p{N}]*$/u.exec(last.text)?.[0] ?? '';
    result.push({
      ...first,
      text: match.to + trailing,
      end: last.end,
      confidence: matched.reduce((sum, word) => sum + word.confidence, 0) / matched.length,
      spelled: true,
    });
    index += match.tokens.length;
  }
  return result;
}

/** filter_profanity: like the real service, keeps the first letter and stars the rest ("d***"). */
export function filterProfanity(words: readonly DraftWord[]): DraftWord[] {
  return words.map((word) => {
    const bare = bareWord(word.text);
    if (!PROFANITY.has(bare)) return word;
    const at = word.text.toLowerCase().indexOf(bare);
    const masked = word.text.charAt(at) + '*'.repeat(bare.length - 1);
    return { ...word, text: word.text.slice(0, at) + masked + word.text.slice(at + bare.length) };
  });
}

/** format_text: false leaves words unformatted, which here means lower case (custom spellings excepted). */
export function unformat(words: readonly DraftWord[]): DraftWord[] {
  return words.map((word) => (word.spelled ? word : { ...word, text: word.text.toLowerCase() }));
}
