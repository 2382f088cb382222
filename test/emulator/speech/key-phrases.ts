import { wordSet } from './word-set';
import { roundTo } from './seeded-random';
import type { Timestamp, Word } from './types';
import { bareWord } from './word-transforms';

/**
 * Key phrases (auto_highlights) by RAKE: candidate phrases are runs of content words between stop
 * words and punctuation; a word scores its co-occurrence degree over its frequency; a phrase scores
 * the sum of its words. Counts and timestamps come from every occurrence.
 */

const STOPWORDS = wordSet(
  'a about above after again against all am an and any are as at be because been before being below between ' +
    'both but by can could did do does doing down during each few for from further had has have having he her ' +
    'here hers herself him himself his how i if in into is it its itself just let me more most my myself no nor ' +
    'not now of off on once only or other our ours ourselves out over own same she should so some such than ' +
    'that the their theirs them themselves then there these they this those through to too under until up very ' +
    'was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    "i'm it's i'd i'll we're they're that's don't can't won't let's us also well um uh yes hi thank thanks " +
    'said say says like really every many much',
);

const MAX_PHRASE_WORDS = 4;
const MAX_RESULTS = 15;

export interface KeyPhrase {
  count: number;
  rank: number;
  text: string;
  timestamps: Timestamp[];
}

interface Occurrence {
  key: string;
  tokens: string[];
  timestamp: Timestamp;
}

export function isContentWord(bare: string): boolean {
  return bare.length > 1 && !STOPWORDS.has(bare) && /\p{L}/u.test(bare);
}

function candidateOccurrences(words: readonly Word[]): Occurrence[] {
  const occurrences: Occurrence[] = [];
  let run: Word[] = [];
  const flush = (): void => {
    if (run.length > 0 && run.length <= MAX_PHRASE_WORDS) {
      const tokens = run.map((word) => bareWord(word.text));
      occurrences.push({
        key: tokens.join(' '),
        tokens,
        timestamp: { start: (run[0] as Word).start, end: (run[run.length - 1] as Word).end },
      });
    }
    run = [];
  };
  words.forEach((word, index) => {
    const next = words[index + 1];
    if (!isContentWord(bareWord(word.text))) {
      flush();
      return;
    }
    run.push(word);
    if (/[^\p{L}\p{N}]$/u.test(word.text) || next === undefined || next.speaker !== word.speaker) flush();
  });
  flush();
  return occurrences;
}

export function keyPhrases(words: readonly Word[]): KeyPhrase[] {
  const occurrences = candidateOccurrences(words);
  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const { tokens } of occurrences) {
    for (const token of tokens) {
      frequency.set(token, (frequency.get(token) ?? 0) + 1);
      degree.set(token, (degree.get(token) ?? 0) + tokens.length);
    }
  }
  const phrases = new Map<string, { score: number; timestamps: Timestamp[] }>();
  for (const { key, tokens, timestamp } of occurrences) {
    const entry = phrases.get(key);
    if (entry !== undefined) {
      entry.timestamps.push(timestamp);
      continue;
    }
    const score = tokens.reduce(
      (sum, token) => sum + (degree.get(token) ?? 0) / (frequency.get(token) ?? 1),
      0,
    );
    phrases.set(key, { score, timestamps: [timestamp] });
  }
  // Repetition counts too: a phrase said three times matters more than one said once.
  const ranked = [...phrases.entries()]
    .map(([text, { score, timestamps }]) => ({
      text,
      timestamps,
      weight: score * (1 + Math.log(timestamps.length)),
    }))
    .sort(
      (a, b) =>
        b.weight - a.weight || b.timestamps.length - a.timestamps.length || a.text.localeCompare(b.text),
    )
    .slice(0, MAX_RESULTS);
  const top = ranked[0]?.weight ?? 1;
  return ranked.map(({ text, timestamps, weight }) => ({
    count: timestamps.length,
    rank: roundTo(weight / top, 2),
    text,
    timestamps,
  }));
}
