import { VerbatimError } from '../../../shared/errors';
import type { RecordingMark } from '../../../shared/recording';
import {
  sentenceSpan,
  sentenceSpokenAt,
  type TimedWord,
  type TimeRange,
} from '../../../shared/time-range-words';
import type { Db } from './database';
import { flag, rowMapping, value } from './row-mapping';
import { statement } from './statement-cache';

const markRow = rowMapping({
  id: value<number>('id'),
  recordingId: value<number>('recording_id'),
  atMs: value<number>('at_ms'),
  note: value<string>('note'),
  placed: flag('placed'),
  highlightId: value<number | null>('highlight_id'),
});

/** A sentence as the library gives it: its span and its timed words. */
export type TimedSentence = TimeRange & { words: readonly TimedWord[] };

/** What placing needs of the library: a transcript's sentences, and a highlight made on a span. */
export interface MarkPlacement {
  sentences(transcriptId: string): Promise<TimedSentence[]>;
  highlight(input: {
    transcriptId: string;
    startMs: number;
    endMs: number;
    note: string;
  }): Promise<{ id: number }>;
}

/**
 * A mark is pressed a moment after the words that mattered, often in the pause after them: a
 * mark between sentences belongs to the one before if it ended this recently.
 */
export const markReachesBackMs = 10_000;

/**
 * The span a mark at `atMs` highlights: the words of the sentence spoken then, or of the one
 * that ended just before it, so that the one rule of time-range-words finds exactly that
 * sentence's words in it; undefined in a long silence.
 */
export function markedSpan(sentences: readonly TimedSentence[], atMs: number): TimeRange | undefined {
  const sentence = sentenceSpokenAt(sentences, atMs, markReachesBackMs);
  return sentence && sentenceSpan(sentence);
}

/** Marked moments of recordings (migration 15), and their highlights once transcribed. */
export class RecordingMarks {
  constructor(private readonly db: Db) {}

  add(recordingId: number, atMs: number, note: string): RecordingMark {
    const row = statement(
      this.db,
      'INSERT INTO recording_marks (recording_id, at_ms, note) VALUES (?, ?, ?) RETURNING *',
    ).get(recordingId, Math.max(0, Math.round(atMs)), note);
    return markRow.fromRow(row);
  }

  setNote(id: number, note: string): RecordingMark {
    const row = statement(this.db, 'UPDATE recording_marks SET note = ? WHERE id = ? RETURNING *').get(
      note,
      id,
    );
    if (!row) throw new VerbatimError('not_found', 'That mark is not there any more.');
    return markRow.fromRow(row);
  }

  of(recordingId: number): RecordingMark[] {
    return statement(this.db, 'SELECT * FROM recording_marks WHERE recording_id = ? ORDER BY at_ms, id')
      .all(recordingId)
      .map(markRow.fromRow);
  }

  /** Transcripts made from a recording whose marks wait for them. */
  waitingTranscripts(): string[] {
    return (
      statement(
        this.db,
        `SELECT DISTINCT r.transcript_id AS id FROM recording_marks m JOIN recordings r ON r.id = m.recording_id
           JOIN transcripts t ON t.id = r.transcript_id
           WHERE m.placed = 0 AND t.status = 'completed'`,
      ).all() as { id: string }[]
    ).map((row) => row.id);
  }

  /**
   * Makes each waiting mark of the recordings transcribed as `transcriptId` a highlight on the
   * sentence spoken then, its word as the note; a mark where nothing was said is placed without
   * one. Each mark is placed once, so a highlight deleted later stays deleted. Answers the
   * highlights made.
   */
  async place(transcriptId: string, placement: MarkPlacement): Promise<number> {
    const waiting = statement(
      this.db,
      `SELECT m.* FROM recording_marks m JOIN recordings r ON r.id = m.recording_id
           WHERE r.transcript_id = ? AND m.placed = 0 ORDER BY m.at_ms, m.id`,
    )
      .all(transcriptId)
      .map(markRow.fromRow);
    if (waiting.length === 0) return 0;
    const sentences = await placement.sentences(transcriptId);
    let made = 0;
    for (const mark of waiting) {
      const span = markedSpan(sentences, mark.atMs);
      const highlight = span
        ? await placement.highlight({ transcriptId, ...span, note: mark.note })
        : undefined;
      if (highlight) made += 1;
      statement(this.db, 'UPDATE recording_marks SET placed = 1, highlight_id = ? WHERE id = ?').run(
        highlight?.id ?? null,
        mark.id,
      );
    }
    return made;
  }
}
