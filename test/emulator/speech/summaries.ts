import { isContentWord, keyPhrases } from './key-phrases';
import type { Paragraph, Sentence } from './types';
import { bareWord } from './word-transforms';

/**
 * The deprecated summaries and auto chapters, by extraction: sentences are scored by how often their
 * content words occur in the whole transcript, and the best ones (kept in spoken order) make the
 * summary, a chapter's headline and its summary. A gist is the leading key phrase. The chapter shape
 * (gist, headline, summary, start, end) is the real service's; the spec does not show it.
 */

export interface Chapter {
  gist: string;
  headline: string;
  summary: string;
  start: number;
  end: number;
}

/** A chapter runs for at least this long (or an eighth of the recording, if longer). */
const MIN_CHAPTER_MS = 20_000;
const CHAPTER_SHARE = 1 / 8;
/** Shorter sentences ("Thank you.") are not summary material. */
const MIN_SUMMARY_SENTENCE_WORDS = 5;

type SentenceScorer = (sentence: Sentence) => number;

function sentenceScorer(sentences: readonly Sentence[]): SentenceScorer {
  const frequency = new Map<string, number>();
  for (const sentence of sentences) {
    for (const word of sentence.words) {
      const bare = bareWord(word.text);
      if (isContentWord(bare)) frequency.set(bare, (frequency.get(bare) ?? 0) + 1);
    }
  }
  return (sentence) => {
    const total = sentence.words.reduce((sum, word) => sum + (frequency.get(bareWord(word.text)) ?? 0), 0);
    return total / Math.sqrt(sentence.words.length);
  };
}

/** The `count` best sentences, in the order they were spoken. */
function bestSentences(sentences: readonly Sentence[], score: SentenceScorer, count: number): Sentence[] {
  const candidates = sentences.filter((sentence) => sentence.words.length >= MIN_SUMMARY_SENTENCE_WORDS);
  const pool = candidates.length > 0 ? candidates : [...sentences];
  return pool
    .map((sentence, order) => ({ sentence, order, score: score(sentence) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, count)
    .sort((a, b) => a.order - b.order)
    .map(({ sentence }) => sentence);
}

function gistOf(sentences: readonly Sentence[]): string {
  const phrases = keyPhrases(sentences.flatMap((sentence) => sentence.words));
  const phrase = phrases.find((candidate) => candidate.text.includes(' ')) ?? phrases[0];
  const text = phrase?.text ?? sentences[0]?.text ?? '';
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function chaptersOf(paragraphs: readonly Paragraph[], sentences: readonly Sentence[]): Chapter[] {
  const first = paragraphs[0];
  const last = paragraphs[paragraphs.length - 1];
  if (first === undefined || last === undefined) return [];
  const minimumLength = Math.max(MIN_CHAPTER_MS, (last.end - first.start) * CHAPTER_SHARE);
  const groups: Paragraph[][] = [];
  let current: Paragraph[] = [];
  for (const paragraph of paragraphs) {
    current.push(paragraph);
    if (paragraph.end - (current[0] as Paragraph).start >= minimumLength) {
      groups.push(current);
      current = [];
    }
  }
  // A short tail joins the chapter before it rather than standing alone.
  if (current.length > 0) {
    const previous = groups.pop();
    groups.push(previous === undefined ? current : [...previous, ...current]);
  }
  const score = sentenceScorer(sentences);
  return groups.map((group) => {
    const start = (group[0] as Paragraph).start;
    const end = (group[group.length - 1] as Paragraph).end;
    const inChapter = sentences.filter((sentence) => sentence.start >= start && sentence.end <= end);
    return {
      gist: gistOf(inChapter),
      headline: bestSentences(inChapter, score, 1)[0]?.text ?? '',
      summary: bestSentences(inChapter, score, 2)
        .map((sentence) => sentence.text)
        .join(' '),
      start,
      end,
    };
  });
}

/** summary_type: bullets (default), bullets_verbose, paragraph, headline or gist. */
export function summaryOf(sentences: readonly Sentence[], summaryType: string): string {
  const score = sentenceScorer(sentences);
  const texts = (count: number): string[] =>
    bestSentences(sentences, score, count).map((sentence) => sentence.text);
  switch (summaryType) {
    case 'gist':
      return gistOf(sentences);
    case 'headline':
      return texts(1)[0] ?? '';
    case 'paragraph':
      return texts(3).join(' ');
    case 'bullets_verbose':
      return texts(6)
        .map((text) => `- ${text}`)
        .join('\n');
    default:
      return texts(3)
        .map((text) => `- ${text}`)
        .join('\n');
  }
}
