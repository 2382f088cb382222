import type { Segment, Word } from '../../../shared/library';
import type { ExportTranscript } from './export-model';

/** Test transcripts for the text formats: timed words per sentence, paragraphs by speaker turn. */

export interface FixtureLine {
  speaker: string | null;
  text: string;
  /** Gap of silence before this sentence, ms. */
  pauseMs?: number;
  /** Duration of each word, ms (fast speech uses small values). */
  wordMs?: number;
}

export function makeTranscript(
  lines: FixtureLine[],
  extra: Partial<ExportTranscript> = {},
): ExportTranscript {
  let clock = 500;
  const sentences: Segment[] = lines.map((line, position) => {
    clock += line.pauseMs ?? 0;
    const words: Word[] = line.text.split(/\s+/).map((text) => {
      const start = clock;
      const end = start + (line.wordMs ?? 320);
      clock = end + 40;
      return { text, start, end, confidence: 0.9, speaker: line.speaker };
    });
    const first = words[0] as Word;
    const last = words[words.length - 1] as Word;
    return {
      position,
      startMs: first.start,
      endMs: last.end,
      speaker: line.speaker,
      confidence: 0.9,
      text: line.text,
      words,
    };
  });
  const paragraphs: Segment[] = [];
  for (const s of sentences) {
    const p = paragraphs[paragraphs.length - 1];
    if (p && p.speaker === s.speaker) {
      p.endMs = s.endMs;
      p.text += ` ${s.text}`;
      p.words.push(...s.words);
    } else {
      paragraphs.push({ ...s, position: paragraphs.length, words: [...s.words] });
    }
  }
  return {
    title: 'Council meeting',
    sourceName: 'council.mp3',
    createdAt: Date.UTC(2026, 10, 20, 9, 30),
    audioDurationMs: clock + 1000,
    languageCode: 'en',
    speakers: new Map([
      ['A', 'Maria Lopez'],
      ['B', 'Speaker B'],
    ]),
    sentences,
    paragraphs,
    ...extra,
  };
}

/** Two speakers, two paragraphs for A, redacted digits and an unredacted twin. */
export function interview(): ExportTranscript {
  const t = makeTranscript([
    { speaker: 'A', text: 'Good morning, everyone.' },
    { speaker: 'A', text: 'The budget is "final", she said.' },
    { speaker: 'B', text: 'Call me at ##########, please.', pauseMs: 600 },
    { speaker: 'A', text: 'Thank you.' },
  ]);
  const unredacted = t.sentences.flatMap((s) =>
    s.words.map((w) => (w.text === '##########,' ? { ...w, text: '5551234567,' } : w)),
  );
  return { ...t, unredacted: { words: unredacted } };
}
