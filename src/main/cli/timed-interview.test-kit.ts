import type { Word } from '../../shared/library';
import type { TimedSentence } from '../../shared/timed-transcript.test-kit';
import type { Library } from '../core/library/library';

/** Stores a finished transcript of these sentences (their words timed as given) as `id`. */
export async function storeTimedTranscript(
  library: Library,
  id: string,
  sentences: readonly TimedSentence[],
  paragraphs: readonly { startMs: number; endMs: number }[] = [],
): Promise<void> {
  await library.createJob({
    id,
    title: 'Ferry interview',
    sourceKind: 'file',
    source: `/recordings/${id}.wav`,
    audioPath: null,
    region: 'us',
    options: { speaker_labels: true },
    status: 'fetching',
  });
  await library.saveCompleted(id, {
    transcript: { id: `remote-${id}`, text: sentences.map((s) => s.text).join(' '), language_code: 'en' },
    sentences: sentences.map((s) => ({ ...s, start: s.startMs, end: s.endMs, confidence: 0.9 })),
    paragraphs: paragraphs.map((p, index) => ({
      text: `paragraph ${index + 1}`,
      start: p.startMs,
      end: p.endMs,
      confidence: 0.9,
    })),
  });
}

/** A sentence of words given as [text, start, end]. */
function sentence(speaker: string, words: [string, number, number][]): TimedSentence {
  const timed: Word[] = words.map(([text, start, end]) => ({ text, start, end, confidence: 0.9, speaker }));
  return {
    speaker,
    startMs: timed[0]!.start,
    endMs: timed.at(-1)!.end,
    text: words.map(([text]) => text).join(' '),
    words: timed,
  };
}

/**
 * The moment of the ferry interview where issue #31 was seen: "frustration." runs from 36.705 s
 * to 37.415 s and the next sentence, printed [00:00:37], starts at 37.744 s; "When does…",
 * printed [00:00:44], runs on past 00:00:45.
 */
export const ferryMoment: readonly TimedSentence[] = [
  sentence('B', [
    ['I', 34_900, 35_100],
    ['understand', 35_200, 35_900],
    ['the', 36_000, 36_400],
    ['frustration.', 36_705, 37_415],
  ]),
  sentence('B', [
    ['Frankly,', 37_744, 38_200],
    ['the', 38_300, 38_450],
    ['old', 38_500, 38_800],
    ['ferry', 38_850, 39_250],
    ['was', 39_300, 39_500],
    ['a', 39_550, 39_600],
    ['damn', 39_650, 39_950],
    ['disgrace.', 40_000, 40_700],
  ]),
  sentence('B', [
    ['We', 42_500, 42_650],
    ['had', 42_700, 42_900],
    ['to', 42_950, 43_050],
    ['act', 43_100, 43_400],
    ['quickly.', 43_450, 43_900],
  ]),
  sentence('A', [
    ['When', 44_250, 44_500],
    ['does', 44_600, 44_850],
    ['the', 44_950, 45_100],
    ['new', 45_200, 45_500],
    ['ferry', 45_600, 45_900],
    ['service', 46_000, 46_400],
    ['start?', 46_450, 46_800],
  ]),
];
