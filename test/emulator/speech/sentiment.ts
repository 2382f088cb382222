import { wordSet } from './word-set';
import { roundTo, seededNumber } from './seeded-random';
import type { Sentence } from './types';
import { bareWord } from './word-transforms';

/**
 * Sentiment per sentence from a small word lexicon; "not"/"never" flip the next word. The item shape
 * is the real service's (text, start, end, sentiment, confidence, speaker, and channel with
 * multichannel), which the spec does not show.
 */

export interface SentimentResult {
  text: string;
  start: number;
  end: number;
  sentiment: 'POSITIVE' | 'NEUTRAL' | 'NEGATIVE';
  confidence: number;
  speaker: string | null;
  channel?: string;
}

const POSITIVE = wordSet(
  'good great best better pleasure thank thanks confident improve improved happy excellent ' +
    'love welcome glad proud success successful safe reliable wonderful nice newest ' +
    'agreed support benefit bueno buenos gracias',
);
const NEGATIVE = wordSet(
  'bad worse worst angry disgrace rushed frustration frustrated critics problem problems ' +
    'terrible awful hate late fail failed failure sad wrong unfair damn crisis scandal delay ' +
    'delayed broken complaint complaints worried concern',
);
const NEGATORS = wordSet("not never don't doesn't isn't wasn't can't won't no");

function sentimentOf(sentence: Sentence): SentimentResult {
  let score = 0;
  let negate = false;
  for (const word of sentence.words) {
    const bare = bareWord(word.text);
    const polarity = POSITIVE.has(bare) ? 1 : NEGATIVE.has(bare) ? -1 : 0;
    score += negate ? -polarity : polarity;
    negate = NEGATORS.has(bare);
  }
  const sentiment = score > 0 ? 'POSITIVE' : score < 0 ? 'NEGATIVE' : 'NEUTRAL';
  const jitter = seededNumber(`sentiment:${sentence.start}:${sentence.text}`, 0, 0.06);
  const confidence = score === 0 ? 0.62 + jitter * 4 : Math.min(0.99, 0.7 + 0.1 * Math.abs(score) + jitter);
  return {
    text: sentence.text,
    start: sentence.start,
    end: sentence.end,
    sentiment,
    confidence: roundTo(confidence, 4),
    speaker: sentence.speaker,
    ...(sentence.channel === undefined ? {} : { channel: sentence.channel }),
  };
}

export function sentimentAnalysis(sentences: readonly Sentence[]): SentimentResult[] {
  return sentences.map(sentimentOf);
}
