import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { timedTranscripts } from '../../../shared/timed-transcript.test-kit';
import { sentenceSpokenAt } from '../../../shared/time-range-words';
import { openDatabase, type Db } from './database';
import { Library } from './library';
import { markReachesBackMs, markedSpan, RecordingMarks } from './recording-marks';

/** Sentences of two words each, the first said from the sentence's start, the second up to its end. */
const sentences = [
  [0, 4000],
  [4500, 9000],
  [30_000, 34_000],
].map(([startMs, endMs]) => ({
  startMs: startMs!,
  endMs: endMs!,
  words: [
    { start: startMs! + 100, end: startMs! + 1000 },
    { start: endMs! - 900, end: endMs! - 100 },
  ],
}));

describe('markedSpan', () => {
  it('is the words of the sentence spoken at a moment, or of the one that just ended, never one long past', () => {
    expect(markedSpan(sentences, 1000)).toEqual({ startMs: 100, endMs: 3900 });
    expect(markedSpan(sentences, 4200)).toEqual({ startMs: 100, endMs: 3900 }); // in the pause after it
    expect(markedSpan(sentences, 9000)).toEqual({ startMs: 4600, endMs: 8900 });
    expect(markedSpan(sentences, 18_999)).toEqual({ startMs: 4600, endMs: 8900 });
    expect(markedSpan(sentences, 19_001)).toBeUndefined();
    expect(markedSpan([], 0)).toBeUndefined();
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
      { transcriptId: 't1', startMs: 4600, endMs: 8900, note: 'ferry budget' },
      { transcriptId: 't1', startMs: 30_100, endMs: 33_900, note: '' },
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

describe('marks through the library', () => {
  it('a mark anywhere makes a highlight of exactly the words of the sentence spoken then or just before', async () => {
    await fc.assert(
      fc.asyncProperty(
        timedTranscripts.chain((spoken) =>
          fc.tuple(
            fc.constant(spoken),
            fc.array(fc.integer({ min: 0, max: spoken.at(-1)!.endMs + markReachesBackMs + 2000 }), {
              minLength: 1,
              maxLength: 5,
            }),
          ),
        ),
        async ([spoken, moments]) => {
          const db = openDatabase(':memory:');
          try {
            const library = new Library(db);
            await library.createJob({
              id: 't1',
              title: 'Recorded',
              sourceKind: 'file',
              source: '/r/a.wav',
              audioPath: null,
              region: 'us',
              options: {},
              status: 'fetching',
            });
            await library.saveCompleted('t1', {
              transcript: { id: 'remote-t1', text: spoken.map((s) => s.text).join(' ') },
              sentences: spoken.map((s) => ({ ...s, start: s.startMs, end: s.endMs })),
              paragraphs: [],
            });
            db.prepare(
              "INSERT INTO recordings (id, path, started_at, sample_rate, channels, status, process_id, transcript_id) VALUES (1, '/r/a.wav', 1, 48000, 1, 'finished', 1, 't1')",
            ).run();
            const marks = new RecordingMarks(db);
            for (const atMs of moments) marks.add(1, atMs, '');
            await marks.place('t1', {
              sentences: (id) => library.sentences(id),
              highlight: (input) => library.createHighlight(input),
            });
            for (const mark of marks.of(1)) {
              const sentence = sentenceSpokenAt(spoken, mark.atMs, markReachesBackMs);
              const highlight =
                mark.highlightId === null ? undefined : await library.highlight(mark.highlightId);
              expect(highlight?.text).toBe(sentence?.text);
            }
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
