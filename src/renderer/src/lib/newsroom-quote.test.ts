import { describe, expect, it } from 'vitest';
import type { NewsroomTranscript } from '../../../shared/newsroom-search';
import { newsroomQuote, newsroomTranscriptText } from './newsroom-quote';

const transcript: NewsroomTranscript = {
  reporter: 'ben',
  transcriptId: 'harbour',
  desk: 'City',
  confidential: false,
  revision: 2,
  title: 'The harbour master',
  recordedAt: Date.UTC(2025, 3, 14, 9, 30),
  languageCode: 'en',
  durationMs: 60_000,
  redacted: false,
  hasAudio: false,
  speakers: [{ label: 'A', name: 'Harbour master' }],
  tags: [],
  paragraphs: null,
  checkedParagraphs: [],
  sentences: [
    {
      position: 0,
      startMs: 83_000,
      endMs: 85_000,
      speaker: 'A',
      text: 'The harbour  opens at dawn.',
      words: [],
    },
  ],
  highlights: [],
};

describe("a quote from a colleague's transcript", () => {
  it('keeps the words as published and names the reporter who recorded them', () => {
    expect(newsroomQuote(transcript, transcript.sentences[0]!)).toBe(
      '“The harbour opens at dawn.” — Harbour master, “The harbour master”, Apr 14, 2025, 00:01:23, recorded by ben, City desk',
    );
  });

  it('exports the transcript headed by the reporter and desk', () => {
    expect(newsroomTranscriptText(transcript)).toBe(
      'The harbour master\nFrom the newsroom: recorded by ben, City desk, revision 2\n\n[00:01:23] Harbour master: The harbour  opens at dawn.\n',
    );
  });
});
