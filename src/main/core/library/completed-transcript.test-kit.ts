import type { Word } from '../../../shared/library';
import type { CompletedTranscript, Library, SegmentInput } from './library';

/**
 * Test support: a finished transcript written as lines of (speaker, text, start in ms), each
 * line one sentence whose words are its text split on spaces, timed one after the other from
 * the sentence's start. The tests that store such a transcript differ only in the timings.
 */
export type TranscriptLine = readonly [speaker: string, text: string, startMs: number];

export interface LineTimings {
  /** How long each sentence lasts. */
  sentenceMs: number;
  sentenceConfidence: number;
  /** How far apart the words of a sentence start, and how long each one lasts. */
  wordEveryMs: number;
  wordMs: number;
  /** A word's confidence: one for all, or by the word. */
  wordConfidence: number | ((word: string) => number);
}

/** The timings of the interviews with a misheard name: "Brenan" is the one word the service doubted. */
export const misheardTimings: LineTimings = {
  sentenceMs: 2500,
  sentenceConfidence: 0.8,
  wordEveryMs: 400,
  wordMs: 350,
  wordConfidence: (word) => (word === 'Brenan' ? 0.4 : 0.95),
};

export type SentenceWithWords = SegmentInput & { speaker: string; words: Word[] };

/** The sentences of the lines, each with its words split from its text. */
export function sentencesWithWords(
  lines: readonly TranscriptLine[],
  timings: LineTimings,
): SentenceWithWords[] {
  const { sentenceMs, sentenceConfidence, wordEveryMs, wordMs, wordConfidence } = timings;
  return lines.map(([speaker, text, start]) => ({
    speaker,
    text,
    start,
    end: start + sentenceMs,
    confidence: sentenceConfidence,
    words: text.split(' ').map((word, i) => ({
      text: word,
      start: start + i * wordEveryMs,
      end: start + i * wordEveryMs + wordMs,
      confidence: typeof wordConfidence === 'number' ? wordConfidence : wordConfidence(word),
      speaker,
    })),
  }));
}

/**
 * The completed transcript of the lines: the service's resource (its text the lines' texts
 * joined, plus `transcript`'s fields), the sentences with their words, and the paragraphs given.
 */
export function completedTranscriptFromLines(
  lines: readonly TranscriptLine[],
  timings: LineTimings,
  rest: { transcript: CompletedTranscript['transcript'] & { id: string }; paragraphs?: SegmentInput[] },
): CompletedTranscript {
  const { id, ...fields } = rest.transcript;
  return {
    transcript: { id, text: lines.map((line) => line[1]).join(' '), ...fields },
    sentences: sentencesWithWords(lines, timings),
    paragraphs: rest.paragraphs ?? [],
  };
}

/** Stores `completed` as a finished transcript from a file, as the scheduler would have. */
export async function storeFinished(
  library: Library,
  id: string,
  title: string,
  completed: CompletedTranscript,
): Promise<void> {
  await library.createJob({
    id,
    title,
    sourceKind: 'file',
    source: `/recordings/${id}.wav`,
    audioPath: null,
    region: 'us',
    options: {},
    status: 'fetching',
  });
  await library.saveCompleted(id, completed);
}
