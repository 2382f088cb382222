import { seededRandom } from './bench-kit';
import type { CompletedTranscript } from '../src/main/core/library/library';
export { storeFinished } from '../src/main/core/library/completed-transcript.test-kit';

/** A vocabulary with a realistic long tail: a few very common words, many rare ones. */
export function vocabulary(size: number, random: () => number): string[] {
  const common =
    'the a to of and in that is it for on was with he she they we you said mayor council ferry contract budget city harbour vote'.split(
      ' ',
    );
  const words = [...common];
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  while (words.length < size) {
    const length = 3 + Math.floor(random() * 8);
    let word = '';
    for (let i = 0; i < length; i++) word += letters[Math.floor(random() * letters.length)];
    words.push(word);
  }
  return words;
}

/** Zipf-like choice: index ~ size^(u^2), so low indexes (common words) dominate. */
export function pickWord(words: string[], random: () => number): string {
  const index = Math.floor(Math.pow(words.length, random() ** 2)) - 1;
  return words[Math.max(0, Math.min(words.length - 1, index))]!;
}

/** A transcript of `wordCount` words across two speakers, shaped like the service's exports. */
export function generatedTranscript(wordCount: number, seed = 1): CompletedTranscript {
  const random = seededRandom(seed);
  const words = vocabulary(5000, random);
  const sentences: CompletedTranscript['sentences'] = [];
  let time = 0;
  let produced = 0;
  let speaker = 'A';
  while (produced < wordCount) {
    const length = Math.min(wordCount - produced, 8 + Math.floor(random() * 16));
    const sentenceWords = Array.from({ length }, () => {
      const duration = 180 + Math.floor(random() * 300);
      const word = {
        text: pickWord(words, random),
        start: time,
        end: time + duration,
        confidence: 0.7 + random() * 0.3,
        speaker,
      };
      time += duration + 60;
      return word;
    });
    sentenceWords[0]!.text = sentenceWords[0]!.text[0]!.toUpperCase() + sentenceWords[0]!.text.slice(1);
    sentences.push({
      text: `${sentenceWords.map((w) => w.text).join(' ')}.`,
      start: sentenceWords[0]!.start,
      end: sentenceWords.at(-1)!.end,
      confidence: 0.9,
      speaker,
      words: sentenceWords,
    });
    produced += length;
    time += 400;
    if (random() < 0.3) speaker = speaker === 'A' ? 'B' : 'A';
  }
  const paragraphs: CompletedTranscript['paragraphs'] = [];
  for (let i = 0; i < sentences.length; i += 5) {
    const group = sentences.slice(i, i + 5);
    paragraphs.push({
      text: group.map((s) => s.text).join(' '),
      start: group[0]!.start,
      end: group.at(-1)!.end,
      confidence: 0.9,
      words: group.flatMap((s) => s.words ?? []),
    });
  }
  return {
    transcript: {
      id: `bench-${seed}`,
      status: 'completed',
      text: sentences.map((s) => s.text).join(' '),
      audio_duration: time / 1000,
      language_code: 'en_us',
    },
    sentences,
    paragraphs,
  };
}
