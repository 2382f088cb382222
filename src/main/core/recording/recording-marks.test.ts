import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../library/database';
import { RecordingMarks, sentenceAt } from './recording-marks';

const sentences = [
  { startMs: 0, endMs: 4000 },
  { startMs: 4500, endMs: 9000 },
  { startMs: 30_000, endMs: 34_000 },
];

describe('sentenceAt', () => {
  it('finds the sentence spoken at a moment, or the one that just ended, never one long past', () => {
    expect(sentenceAt(sentences, 1000)).toBe(sentences[0]);
    expect(sentenceAt(sentences, 4200)).toBe(sentences[0]); // in the pause after it
    expect(sentenceAt(sentences, 9000)).toBe(sentences[1]);
    expect(sentenceAt(sentences, 18_999)).toBe(sentences[1]);
    expect(sentenceAt(sentences, 19_001)).toBeUndefined();
    expect(sentenceAt([], 0)).toBeUndefined();
  });
});

describe('RecordingMarks.place', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
    db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t1', 'Interview', 'file', '/r/a.wav', 'completed', 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO recordings (id, path, started_at, sample_rate, channels, status, process_id, transcript_id) VALUES (1, '/r/a.wav', 1, 48000, 1, 'finished', 1, 't1')",
    ).run();
  });
  afterEach(() => db.close());

  it('makes each mark a highlight on its sentence with its word, once, and leaves a mark in silence placed', async () => {
    const marks = new RecordingMarks(db);
    marks.add(1, 5000, 'ferry budget');
    marks.add(1, 25_000, '');
    marks.add(1, 31_000, '');
    expect(marks.waitingTranscripts()).toEqual(['t1']);
    const made: unknown[] = [];
    const placement = {
      sentences: () => Promise.resolve(sentences),
      // The library's highlight, as a row (the marks refer to it).
      highlight: (input: { transcriptId: string; startMs: number; endMs: number; note: string }) => {
        made.push(input);
        return Promise.resolve(
          db
            .prepare(
              'INSERT INTO highlights (transcript_id, start_ms, end_ms, label_id, note, created_at) VALUES (@transcriptId, @startMs, @endMs, 1, @note, 0) RETURNING id',
            )
            .get(input) as { id: number },
        );
      },
    };
    expect(await marks.place('t1', placement)).toBe(2);
    expect(made).toEqual([
      { transcriptId: 't1', startMs: 4500, endMs: 9000, note: 'ferry budget' },
      { transcriptId: 't1', startMs: 30_000, endMs: 34_000, note: '' },
    ]);
    expect(marks.of(1).map((mark) => [mark.atMs, mark.placed, mark.highlightId])).toEqual([
      [5000, true, 1],
      [25_000, true, null],
      [31_000, true, 2],
    ]);
    // Placed once: a second completion (a re-run) makes nothing again.
    expect(await marks.place('t1', placement)).toBe(0);
    expect(marks.waitingTranscripts()).toEqual([]);
    expect(() => marks.setNote(99, 'x')).toThrow('That mark is not there any more.');
  });
});
