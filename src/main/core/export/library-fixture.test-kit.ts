import type { Library } from '../library/library';
import { sentencesWithWords, type TranscriptLine } from '../library/completed-transcript.test-kit';

/**
 * A finished interview in a library, as the scheduler stores one: two speakers, a phone number
 * the service redacted with the unredacted words alongside, a summary, key phrases and
 * entities. For the export tests of the core, the handlers and the CLI.
 */
export const storedPhone = { redacted: '####', unredacted: '5550199' };

export async function storeInterview(
  library: Library,
  id: string,
  title = 'Ferry contract interview',
): Promise<void> {
  const lines: TranscriptLine[] = [
    ['A', 'Good morning, thank you for coming.', 1000],
    ['A', `You can call me on ${storedPhone.redacted} later.`, 4000],
    ['B', 'The ferry contract was signed in March.', 8000],
    ['B', '=SUM(A1) is what the spreadsheet said.', 12_000],
  ];
  const sentences = sentencesWithWords(lines, {
    sentenceMs: 3000,
    sentenceConfidence: 0.9,
    wordEveryMs: 300,
    wordMs: 250,
    wordConfidence: 0.9,
  });
  const words = sentences.flatMap((s) => s.words);
  await library.createJob({
    id,
    title,
    sourceKind: 'file',
    source: `/home/reporter/secret-project/${id}.wav`,
    audioPath: null,
    region: 'us',
    options: { speaker_labels: true },
    status: 'fetching',
  });
  await library.saveCompleted(id, {
    transcript: {
      id: `remote-${id}`,
      text: sentences.map((s) => s.text).join(' '),
      language_code: 'en',
      audio_duration: 16,
      words,
      unredacted_words: words.map((w) =>
        w.text === storedPhone.redacted ? { ...w, text: storedPhone.unredacted } : w,
      ),
      summary: 'The council signed the ferry contract.',
      auto_highlights_result: {
        status: 'success',
        results: [{ text: 'ferry contract', count: 2, rank: 0.9, timestamps: [{ start: 8000, end: 9000 }] }],
      },
      entities: [{ entity_type: 'date', text: 'March', start: 10_000, end: 10_300 }],
    },
    sentences,
    paragraphs: [
      {
        text: `${lines[0]?.[1]} ${lines[1]?.[1]}`,
        start: 1000,
        end: 7000,
        speaker: 'A',
        words: [],
      },
      { text: `${lines[2]?.[1]} ${lines[3]?.[1]}`, start: 8000, end: 15_000, speaker: 'B', words: [] },
    ],
  });
}
