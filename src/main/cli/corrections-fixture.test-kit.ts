import type { Library } from '../core/library/library';
import { completedTranscriptFromLines, misheardTimings } from '../core/library/completed-transcript.test-kit';

/**
 * A finished interview with a misheard name, as the scheduler stores one: "Brenan" (the
 * mayor is Brennan) three times across three paragraphs and two speakers, for the tests of
 * the command line's corrections (edit, history, undo, revert) and the kill test.
 */
export const misheardLines: readonly [speaker: string, text: string, startMs: number][] = [
  ['A', 'Mayor Brenan opened the meeting.', 0],
  ['A', 'The ferry contract was signed.', 3000],
  ['B', 'Brenan is wrong about the ferry.', 6000],
  ['B', 'The harbour needs a new ferry.', 9000],
  ['A', 'I told Brenan the same thing.', 12_000],
];

export async function storeMisheardInterview(
  library: Library,
  id: string,
  title = 'Harbour council',
  languageCode = 'en',
): Promise<void> {
  await library.createJob({
    id,
    title,
    sourceKind: 'file',
    source: `/recordings/${id}.wav`,
    audioPath: null,
    region: 'us',
    options: { speaker_labels: true },
    status: 'fetching',
  });
  await library.saveCompleted(
    id,
    completedTranscriptFromLines(misheardLines, misheardTimings, {
      transcript: { id: `remote-${id}`, language_code: languageCode, audio_duration: 15 },
      paragraphs: [
        { text: 'one', start: 0, end: 5500, confidence: 0.9 },
        { text: 'two', start: 6000, end: 11_500, confidence: 0.9 },
        { text: 'three', start: 12_000, end: 14_500, confidence: 0.9 },
      ],
    }),
  );
}
