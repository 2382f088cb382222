import { newSentenceFacetsSql } from './search-facets';
import { inWriteTransaction, type Db } from './database';
import type { Segment, Word } from '../../../shared/library';
import type { SentenceContent } from '../../../shared/corrections/corrections';
import { cleanText } from './fts-query';
import { transcriptNotFound, type JobStore } from './job-store';
import { statement } from './statement-cache';

export interface CompletedTranscript {
  transcript: Record<string, unknown> & {
    text?: string | null;
    language_code?: string | null;
    audio_duration?: number | null;
  };
  sentences: SegmentInput[];
  paragraphs: SegmentInput[];
}

export interface SegmentInput {
  text: string;
  start: number;
  end: number;
  confidence?: number | null;
  speaker?: string | null;
  words?: Word[];
}

type SegmentTable = 'sentences' | 'paragraphs' | 'machine_sentences';

interface SegmentRow {
  position: number;
  start_ms: number;
  end_ms: number;
  speaker: string | null;
  confidence: number | null;
  text: string;
  words_json: string;
}

type SegmentFields = Omit<SegmentRow, 'words_json'>;

/**
 * What the service made of a recording: its full JSON, and the sentences and paragraphs with
 * their words, which search indexes (the sentences table feeds the FTS5 index by trigger).
 * Synchronous; the Library facade makes it async.
 */
export class TranscriptContent {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobStore,
    private readonly now: () => number,
  ) {}

  /**
   * Stores a finished transcript with its sentences and paragraphs in one transaction. A
   * transcript the journalist has corrected keeps its corrected sentences when the service's
   * copy is fetched again (a retry, a resume): only the machine copy beside them is replaced.
   */
  save(id: string, completed: CompletedTranscript): void {
    const at = this.now();
    inWriteTransaction(this.db, () => {
      this.jobs.require(id);
      const corrected =
        statement(this.db, 'SELECT 1 FROM machine_sentences WHERE transcript_id = ? LIMIT 1').get(id) !==
        undefined;
      const target: SegmentTable = corrected ? 'machine_sentences' : 'sentences';
      statement(this.db, `DELETE FROM ${target} WHERE transcript_id = ?`).run(id);
      statement(this.db, 'DELETE FROM paragraphs WHERE transcript_id = ?').run(id);
      this.markCompleted(id, completed.transcript, at);
      this.insertSegments(target, id, completed.sentences, (s) => s.speaker ?? null);
      this.insertSegments(
        'paragraphs',
        id,
        completed.paragraphs,
        (p) => p.speaker ?? p.words?.[0]?.speaker ?? null,
      );
      this.addSpeakers(id, completed.sentences);
    });
  }

  /** The service's full JSON for a transcript, as it was stored. */
  transcriptJson(id: string): Record<string, unknown> | undefined {
    const row = statement(this.db, 'SELECT transcript_json FROM transcripts WHERE id = ?').get(id) as
      { transcript_json: string | null } | undefined;
    if (!row) throw transcriptNotFound(id);
    return row.transcript_json ? (JSON.parse(row.transcript_json) as Record<string, unknown>) : undefined;
  }

  sentences(id: string): Segment[] {
    return this.segments('sentences', id);
  }

  /** The first `limit` sentences, in order: what the reader paints while the rest is on its way. */
  firstSentences(id: string, limit: number): Segment[] {
    return this.segments('sentences', id, limit);
  }

  /** Any of the segment tables, in order: the corrected sentences, the paragraphs, the machine copy. */
  segmentsOf(table: SegmentTable, id: string): Segment[] {
    return this.segments(table, id);
  }

  sentenceCount(id: string): number {
    return (
      statement(this.db, 'SELECT count(*) AS n FROM sentences WHERE transcript_id = ?').get(id) as {
        n: number;
      }
    ).n;
  }

  paragraphCount(id: string): number {
    return (
      statement(this.db, 'SELECT count(*) AS n FROM paragraphs WHERE transcript_id = ?').get(id) as {
        n: number;
      }
    ).n;
  }

  /** The paragraphs' time spans in order, without their words. */
  paragraphSpans(id: string): { startMs: number; endMs: number }[] {
    return statement(
      this.db,
      'SELECT start_ms AS startMs, end_ms AS endMs FROM paragraphs WHERE transcript_id = ? ORDER BY position',
    ).all(id) as { startMs: number; endMs: number }[];
  }

  /** The sentences at positions `from` (inclusive) to `to` (exclusive). */
  sentenceRange(id: string, from: number, to: number): Segment[] {
    return statement(
      this.db,
      `SELECT position, start_ms, end_ms, speaker, confidence, text, words_json FROM sentences
         WHERE transcript_id = ? AND position >= ? AND position < ? ORDER BY position`,
    )
      .all(id, from, to)
      .map((row) => toSegment(row as SegmentRow));
  }

  /** The sentence at `position` and the ones after it said by the same speaker: its turn from there. */
  turnRows(id: string, position: number): Segment[] {
    const rows: Segment[] = [];
    // Prepared afresh, not from the statement cache: a cached statement is busy while iterated.
    const iterator = this.db
      .prepare(
        `SELECT position, start_ms, end_ms, speaker, confidence, text, words_json FROM sentences
         WHERE transcript_id = ? AND position >= ? ORDER BY position`,
      )
      .iterate(id, position) as IterableIterator<SegmentRow>;
    for (const row of iterator) {
      if (rows.length > 0 && row.speaker !== rows[0]?.speaker) break;
      rows.push(toSegment(row));
    }
    return rows;
  }

  /** Inserts corrected sentences from `position` on (the caller has made room for them). */
  insertSentences(id: string, position: number, sentences: readonly SentenceContent[]): void {
    // Each sentence carries its tag and speaker terms for filtered search (search-facets.ts).
    const insert = statement(
      this.db,
      `INSERT INTO sentences (transcript_id, position, start_ms, end_ms, speaker, confidence, text, words_json, facets)
       VALUES (@transcript, @position, @startMs, @endMs, @speaker, @confidence, @text, @words, ${newSentenceFacetsSql})`,
    );
    sentences.forEach((sentence, offset) => {
      insert.run({
        transcript: id,
        position: position + offset,
        startMs: sentence.startMs,
        endMs: sentence.endMs,
        speaker: sentence.speaker,
        confidence: sentence.confidence,
        text: sentence.text,
        words: JSON.stringify(sentence.words),
      });
    });
  }

  /**
   * The paragraphs in order. With `words: false` their words are neither read nor parsed and
   * come back empty: the reader takes every word from the sentences, and reading and parsing a
   * 3-hour transcript's paragraph words only to drop them cost ~20 ms per open.
   */
  /** `startingBefore`: only the paragraphs that start before this time (ms), as the first sentences need. */
  paragraphs(id: string, options: { words?: boolean; startingBefore?: number } = {}): Segment[] {
    if (options.words !== false) return this.segments('paragraphs', id);
    const rows = statement(
      this.db,
      `SELECT position, start_ms, end_ms, speaker, confidence, text FROM paragraphs
         WHERE transcript_id = ? AND start_ms < ? ORDER BY position`,
    ).all(id, options.startingBefore ?? Number.MAX_SAFE_INTEGER) as SegmentFields[];
    return rows.map((row) => segmentWithWords(row, []));
  }

  private markCompleted(id: string, transcript: CompletedTranscript['transcript'], at: number): void {
    statement(
      this.db,
      `UPDATE transcripts SET status = 'completed', error = NULL, transcript_json = ?, text = ?, language_code = ?,
           audio_duration_ms = ?, completed_at = ?, updated_at = ?, next_check_at = NULL WHERE id = ?`,
    ).run(
      JSON.stringify(transcript),
      transcript.text ?? null,
      transcript.language_code ?? null,
      typeof transcript.audio_duration === 'number' ? Math.round(transcript.audio_duration * 1000) : null,
      at,
      at,
      id,
    );
  }

  private insertSegments(
    table: SegmentTable,
    id: string,
    segments: SegmentInput[],
    speakerOf: (segment: SegmentInput) => string | null,
  ): void {
    const insert = statement(
      this.db,
      `INSERT INTO ${table} (transcript_id, position, start_ms, end_ms, speaker, confidence, text, words_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    segments.forEach((segment, position) => {
      insert.run(
        id,
        position,
        Math.round(segment.start),
        Math.round(segment.end),
        speakerOf(segment),
        segment.confidence ?? null,
        cleanText(segment.text),
        JSON.stringify(segment.words ?? []),
      );
    });
  }

  /** Speakers get a row with their label as a placeholder name only when first seen. */
  private addSpeakers(id: string, sentences: SegmentInput[]): void {
    const insert = statement(
      this.db,
      'INSERT OR IGNORE INTO speakers (transcript_id, label, name) VALUES (?, ?, ?)',
    );
    const labels = new Set(sentences.flatMap((sentence) => (sentence.speaker ? [sentence.speaker] : [])));
    for (const label of labels) insert.run(id, label, `Speaker ${label}`);
  }

  /** `limit`: at most this many, from the first (-1, SQLite's "no limit", by default). */
  private segments(table: SegmentTable, id: string, limit = -1): Segment[] {
    const rows = statement(
      this.db,
      `SELECT position, start_ms, end_ms, speaker, confidence, text, words_json FROM ${table}
         WHERE transcript_id = ? ORDER BY position LIMIT ?`,
    ).all(id, limit) as SegmentRow[];
    return rows.map(toSegment);
  }
}

function toSegment(row: SegmentRow): Segment {
  return segmentWithWords(row, JSON.parse(row.words_json) as Word[]);
}

function segmentWithWords(row: SegmentFields, words: Word[]): Segment {
  return {
    position: row.position,
    startMs: row.start_ms,
    endMs: row.end_ms,
    speaker: row.speaker,
    confidence: row.confidence,
    text: row.text,
    words,
  };
}
