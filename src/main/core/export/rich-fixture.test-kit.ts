import type { Segment, Word } from '../../../shared/library';
import type { ExportTranscript } from './export-model';

/** Test fixture for DOCX and PDF: renamed speakers, a redacted phone number, Greek and Arabic. */
function segment(position: number, speaker: string, startMs: number, endMs: number, text: string): Segment {
  const tokens = text.split(' ');
  const step = (endMs - startMs) / tokens.length;
  const words: Word[] = tokens.map((w, i) => ({
    text: w,
    start: Math.round(startMs + i * step),
    end: Math.round(startMs + (i + 1) * step),
    confidence: 0.9,
    speaker,
  }));
  return { position, startMs, endMs, speaker, confidence: 0.9, text, words };
}

export const phoneRedacted = '####';
export const phoneUnredacted = '5550199';

export function richFixture(): ExportTranscript {
  const sentences = [
    segment(0, 'A', 1000, 4000, `Good morning, my number is ${phoneRedacted} today.`),
    segment(1, 'A', 4000, 8000, 'Καλημέρα σας από την Αθήνα.'),
    segment(2, 'B', 65000, 70000, 'مرحبا بكم في البرنامج اليوم.'),
    segment(3, 'C', 3_700_000, 3_703_000, 'Thanks for listening everyone.'),
  ];
  const paragraphs = [
    { ...segment(0, 'A', 1000, 8000, `${sentences[0]?.text} ${sentences[1]?.text}`) },
    segment(1, 'B', 65000, 70000, sentences[2]?.text ?? ''),
    segment(2, 'C', 3_700_000, 3_703_000, sentences[3]?.text ?? ''),
  ];
  const unredactedWords = sentences.flatMap((s) =>
    s.words.map((w) => (w.text === phoneRedacted ? { ...w, text: phoneUnredacted } : w)),
  );
  return {
    title: 'Council meeting interview',
    sourceName: 'interview-2026-11-20.mp3',
    createdAt: Date.UTC(2026, 10, 20, 9, 30),
    audioDurationMs: 3_710_000,
    languageCode: 'el',
    // C stays unnamed on purpose: it must come out as "Speaker C".
    speakers: new Map([
      ['A', 'Maria Papadopoulou'],
      ['B', 'Karim Haddad'],
    ]),
    sentences,
    paragraphs,
    unredacted: { words: unredactedWords },
    analyses: {
      summary: 'An interview about the council budget.',
      keyPhrases: ['council budget', 'public transport'],
      entities: [
        { type: 'person_name', text: 'Maria Papadopoulou' },
        { type: 'location', text: 'Αθήνα' },
      ],
    },
  };
}
