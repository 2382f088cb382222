import { wordSet } from './word-set';
import { roundTo } from './seeded-random';
import type { Paragraph, Sentence, TranscriptRequest, Utterance, Word } from './types';

/**
 * Sentences, paragraphs and utterances are groupings of the transcript's words: sentences end at
 * sentence punctuation (or, without punctuation, at pauses) and never cross a change of speaker;
 * paragraphs gather sentences until the speaker changes or someone pauses; utterances are speaker turns.
 */

const SENTENCE_END = /[.?!]["')\]]*$/;
const ABBREVIATIONS = wordSet('mr. mrs. ms. dr. st. prof. sr. jr.');
/** Without punctuation, a pause this long ends a sentence. */
const SENTENCE_PAUSE_MS = 250;
/** A pause this long starts a new paragraph. */
const PARAGRAPH_PAUSE_MS = 1000;
/** A paragraph this long ends at its next sentence end, so a monologue is not one block. */
const PARAGRAPH_MAX_WORDS = 120;

export function meanConfidence(words: readonly Word[]): number {
  if (words.length === 0) return 0;
  return roundTo(words.reduce((sum, word) => sum + word.confidence, 0) / words.length, 5);
}

export function joinWords(words: readonly Word[]): string {
  return words.map((word) => word.text).join(' ');
}

function sameVoice(a: Word, b: Word): boolean {
  return a.speaker === b.speaker && a.channel === b.channel;
}

/** Splits words into sentences; `punctuated` says whether the text carries sentence punctuation. */
function splitSentences(words: readonly Word[], punctuated: boolean): Word[][] {
  const sentences: Word[][] = [];
  let current: Word[] = [];
  words.forEach((word, index) => {
    current.push(word);
    const next = words[index + 1];
    const endsSentence = punctuated
      ? SENTENCE_END.test(word.text) && !ABBREVIATIONS.has(word.text.toLowerCase())
      : next !== undefined && next.start - word.end >= SENTENCE_PAUSE_MS;
    if (next === undefined || endsSentence || !sameVoice(word, next)) {
      sentences.push(current);
      current = [];
    }
  });
  return sentences;
}

function sentenceOf(words: Word[]): Sentence {
  const first = words[0] as Word;
  const last = words[words.length - 1] as Word;
  return {
    text: joinWords(words),
    start: first.start,
    end: last.end,
    confidence: meanConfidence(words),
    words,
    speaker: first.speaker,
    ...(first.channel === undefined ? {} : { channel: first.channel }),
  };
}

export function buildSentences(words: readonly Word[], punctuated: boolean): Sentence[] {
  return splitSentences(words, punctuated).map(sentenceOf);
}

export function buildParagraphs(sentences: readonly Sentence[]): Paragraph[] {
  const groups: Sentence[][] = [];
  let current: Sentence[] = [];
  let wordCount = 0;
  sentences.forEach((sentence, index) => {
    current.push(sentence);
    wordCount += sentence.words.length;
    const next = sentences[index + 1];
    const breaks =
      next === undefined ||
      next.speaker !== sentence.speaker ||
      next.channel !== sentence.channel ||
      next.start - sentence.end >= PARAGRAPH_PAUSE_MS ||
      wordCount >= PARAGRAPH_MAX_WORDS;
    if (breaks) {
      groups.push(current);
      current = [];
      wordCount = 0;
    }
  });
  return groups.map((group) => {
    const words = group.flatMap((sentence) => sentence.words);
    return {
      text: joinWords(words),
      start: (group[0] as Sentence).start,
      end: (group[group.length - 1] as Sentence).end,
      confidence: meanConfidence(words),
      words,
    };
  });
}

/** Speaker turns: runs of consecutive words with the same speaker (and channel). */
export function buildUtterances(words: readonly Word[]): Utterance[] {
  const utterances: Utterance[] = [];
  let current: Word[] = [];
  words.forEach((word, index) => {
    current.push(word);
    const next = words[index + 1];
    if (next !== undefined && sameVoice(word, next)) return;
    const first = current[0] as Word;
    utterances.push({
      text: joinWords(current),
      start: first.start,
      end: word.end,
      confidence: meanConfidence(current),
      speaker: first.speaker ?? 'A',
      words: current,
      ...(first.channel === undefined ? {} : { channel: first.channel }),
    });
    current = [];
  });
  return utterances;
}

/** The transcript's words, checked: `fields` comes back from storage as plain JSON. */
export function wordsOfFields(fields: Record<string, unknown>): Word[] {
  const words = fields.words;
  if (!Array.isArray(words)) return [];
  return words.map((value: unknown, index) => {
    const word = value as Partial<Word> | null;
    if (
      word === null ||
      typeof word !== 'object' ||
      typeof word.text !== 'string' ||
      typeof word.start !== 'number' ||
      typeof word.end !== 'number' ||
      typeof word.confidence !== 'number'
    ) {
      throw new TypeError(`transcript word ${index} is malformed`);
    }
    return {
      text: word.text,
      start: word.start,
      end: word.end,
      confidence: word.confidence,
      speaker: typeof word.speaker === 'string' ? word.speaker : null,
      ...(typeof word.channel === 'string' ? { channel: word.channel } : {}),
    };
  });
}

export function sentencesOf(fields: Record<string, unknown>, request: TranscriptRequest): Sentence[] {
  return buildSentences(wordsOfFields(fields), request.punctuate !== false);
}

export function paragraphsOf(fields: Record<string, unknown>, request: TranscriptRequest): Paragraph[] {
  return buildParagraphs(sentencesOf(fields, request));
}
