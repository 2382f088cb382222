import { inWriteTransaction, type Db } from './database';
import { VerbatimError } from '../../../shared/errors';
import type {
  JobStatus,
  Region,
  SearchFilters,
  SearchPage,
  Segment,
  TranscriptSummary,
  Word,
} from '../../../shared/library';
import { cleanText, highlight, queryTerms, toFtsQuery } from './fts-query';

export interface NewJob {
  id: string;
  title: string;
  sourceKind: 'file' | 'url';
  source: string;
  audioPath: string | null;
  region: Region;
  options: Record<string, unknown>;
  status: JobStatus;
  bytesTotal?: number | null;
}

export interface JobPatch {
  status?: JobStatus;
  error?: string | null;
  remoteId?: string | null;
  uploadUrl?: string | null;
  nextCheckAt?: number | null;
  checks?: number;
  bytesSent?: number;
  bytesTotal?: number | null;
  audioDurationMs?: number | null;
}

export interface JobRecord extends TranscriptSummary {
  uploadUrl: string | null;
  nextCheckAt: number | null;
  checks: number;
  options: Record<string, unknown>;
}

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

interface TranscriptRow {
  id: string;
  remote_id: string | null;
  region: Region;
  title: string;
  source_kind: 'file' | 'url';
  source: string;
  audio_path: string | null;
  status: JobStatus;
  error: string | null;
  options_json: string;
  language_code: string | null;
  audio_duration_ms: number | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  upload_url: string | null;
  next_check_at: number | null;
  checks: number;
  bytes_total: number | null;
  bytes_sent: number;
}

const unfinished = "status NOT IN ('completed', 'error', 'cancelled')";

/**
 * The offline library: transcripts, their sentences and paragraphs, tags, speaker names and
 * full-text search. Methods are async so the database can move to a worker thread later
 * without changing a caller.
 */
export class Library {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  createJob(job: NewJob): Promise<JobRecord> {
    return settle(() => {
      const at = this.now();
      this.db
        .prepare(
          `INSERT INTO transcripts (id, region, title, source_kind, source, audio_path, status, options_json, created_at, updated_at, bytes_total)
           VALUES (@id, @region, @title, @sourceKind, @source, @audioPath, @status, @options, @at, @at, @bytesTotal)`,
        )
        .run({ ...job, options: JSON.stringify(job.options), at, bytesTotal: job.bytesTotal ?? null });
      return this.requireJob(job.id);
    });
  }

  updateJob(id: string, patch: JobPatch): Promise<JobRecord> {
    return settle(() => {
      const columns: Record<keyof JobPatch, string> = {
        status: 'status',
        error: 'error',
        remoteId: 'remote_id',
        uploadUrl: 'upload_url',
        nextCheckAt: 'next_check_at',
        checks: 'checks',
        bytesSent: 'bytes_sent',
        bytesTotal: 'bytes_total',
        audioDurationMs: 'audio_duration_ms',
      };
      const sets: string[] = ['updated_at = @updatedAt'];
      const values: Record<string, unknown> = { id, updatedAt: this.now() };
      for (const [key, column] of Object.entries(columns) as [keyof JobPatch, string][]) {
        if (patch[key] !== undefined) {
          sets.push(`${column} = @${key}`);
          values[key] = patch[key];
        }
      }
      const result = this.db.prepare(`UPDATE transcripts SET ${sets.join(', ')} WHERE id = @id`).run(values);
      if (result.changes === 0) throw notFound(id);
      return this.requireJob(id);
    });
  }

  get(id: string): Promise<JobRecord | undefined> {
    return settle(() => {
      return this.readJob(id);
    });
  }

  list(options: { status?: JobStatus; limit?: number; offset?: number } = {}): Promise<JobRecord[]> {
    return settle(() => {
      const rows = this.db
        .prepare(
          `SELECT * FROM transcripts ${options.status ? 'WHERE status = @status' : ''}
           ORDER BY created_at DESC, id LIMIT @limit OFFSET @offset`,
        )
        .all({
          status: options.status,
          limit: options.limit ?? 1000,
          offset: options.offset ?? 0,
        }) as TranscriptRow[];
      return rows.map((row) => this.toRecord(row));
    });
  }

  /** Every job the scheduler has not finished: what to resume at start. */
  unfinishedJobs(): Promise<JobRecord[]> {
    return settle(() => {
      const rows = this.db
        .prepare(`SELECT * FROM transcripts WHERE ${unfinished} ORDER BY created_at`)
        .all() as TranscriptRow[];
      return rows.map((row) => this.toRecord(row));
    });
  }

  /** Stores a finished transcript with its sentences and paragraphs in one transaction. */
  saveCompleted(id: string, completed: CompletedTranscript): Promise<JobRecord> {
    return settle(() => {
      const insertSentence = this.db.prepare(
        `INSERT INTO sentences (transcript_id, position, start_ms, end_ms, speaker, confidence, text, words_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertParagraph = this.db.prepare(
        `INSERT INTO paragraphs (transcript_id, position, start_ms, end_ms, speaker, confidence, text, words_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertSpeaker = this.db.prepare(
        'INSERT OR IGNORE INTO speakers (transcript_id, label, name) VALUES (?, ?, ?)',
      );
      const at = this.now();
      inWriteTransaction(this.db, () => {
        const exists = this.db.prepare('SELECT 1 FROM transcripts WHERE id = ?').get(id);
        if (!exists) throw notFound(id);
        this.db.prepare('DELETE FROM sentences WHERE transcript_id = ?').run(id);
        this.db.prepare('DELETE FROM paragraphs WHERE transcript_id = ?').run(id);
        const { transcript } = completed;
        this.db
          .prepare(
            `UPDATE transcripts SET status = 'completed', error = NULL, transcript_json = ?, text = ?, language_code = ?,
               audio_duration_ms = ?, completed_at = ?, updated_at = ?, next_check_at = NULL WHERE id = ?`,
          )
          .run(
            JSON.stringify(transcript),
            transcript.text ?? null,
            transcript.language_code ?? null,
            typeof transcript.audio_duration === 'number'
              ? Math.round(transcript.audio_duration * 1000)
              : null,
            at,
            at,
            id,
          );
        const speakers = new Set<string>();
        completed.sentences.forEach((sentence, position) => {
          const speaker = sentence.speaker ?? null;
          if (speaker) speakers.add(speaker);
          insertSentence.run(
            id,
            position,
            Math.round(sentence.start),
            Math.round(sentence.end),
            speaker,
            sentence.confidence ?? null,
            cleanText(sentence.text),
            JSON.stringify(sentence.words ?? []),
          );
        });
        completed.paragraphs.forEach((paragraph, position) => {
          const speaker = paragraph.speaker ?? paragraph.words?.[0]?.speaker ?? null;
          insertParagraph.run(
            id,
            position,
            Math.round(paragraph.start),
            Math.round(paragraph.end),
            speaker,
            paragraph.confidence ?? null,
            cleanText(paragraph.text),
            JSON.stringify(paragraph.words ?? []),
          );
        });
        // Speakers get a row with their label as a placeholder name only when first seen.
        for (const label of speakers) insertSpeaker.run(id, label, `Speaker ${label}`);
      });
      return this.requireJob(id);
    });
  }

  /** The service's full JSON for a transcript, as it was stored. */
  transcriptJson(id: string): Promise<Record<string, unknown> | undefined> {
    return settle(() => {
      const row = this.db.prepare('SELECT transcript_json FROM transcripts WHERE id = ?').get(id) as
        { transcript_json: string | null } | undefined;
      if (!row) throw notFound(id);
      return row.transcript_json ? (JSON.parse(row.transcript_json) as Record<string, unknown>) : undefined;
    });
  }

  sentences(id: string): Promise<Segment[]> {
    return settle(() => {
      return this.segments('sentences', id);
    });
  }

  paragraphs(id: string): Promise<Segment[]> {
    return settle(() => {
      return this.segments('paragraphs', id);
    });
  }

  renameSpeaker(id: string, label: string, name: string): Promise<void> {
    return settle(() => {
      const trimmed = name.trim();
      if (!trimmed) throw new VerbatimError('invalid_input', 'A speaker needs a name.');
      this.requireJob(id);
      this.db
        .prepare(
          'INSERT INTO speakers (transcript_id, label, name) VALUES (?, ?, ?) ON CONFLICT (transcript_id, label) DO UPDATE SET name = excluded.name',
        )
        .run(id, label, trimmed);
      return;
    });
  }

  setTitle(id: string, title: string): Promise<void> {
    return settle(() => {
      const trimmed = title.trim();
      if (!trimmed) throw new VerbatimError('invalid_input', 'A transcript needs a title.');
      if (
        this.db
          .prepare('UPDATE transcripts SET title = ?, updated_at = ? WHERE id = ?')
          .run(trimmed, this.now(), id).changes === 0
      ) {
        throw notFound(id);
      }
      return;
    });
  }

  setTags(id: string, tags: string[]): Promise<void> {
    return settle(() => {
      this.requireJob(id);
      const unique = [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];
      inWriteTransaction(this.db, () => {
        this.db.prepare('DELETE FROM transcript_tags WHERE transcript_id = ?').run(id);
        const insert = this.db.prepare(
          'INSERT OR IGNORE INTO transcript_tags (transcript_id, tag) VALUES (?, ?)',
        );
        for (const tag of unique) insert.run(id, tag);
      });
      return;
    });
  }

  /** Points a transcript at its recording's new place after the file was moved. */
  relink(id: string, audioPath: string): Promise<void> {
    return settle(() => {
      if (
        this.db
          .prepare('UPDATE transcripts SET audio_path = ?, updated_at = ? WHERE id = ?')
          .run(audioPath, this.now(), id).changes === 0
      ) {
        throw notFound(id);
      }
    });
  }

  delete(id: string): Promise<void> {
    return settle(() => {
      if (this.db.prepare('DELETE FROM transcripts WHERE id = ?').run(id).changes === 0) throw notFound(id);
      return;
    });
  }

  /**
   * Ranked full-text search over every sentence, with highlighted snippets. Any input is a
   * valid query: what cannot be searched for simply finds nothing. Without filters the
   * ranking runs on the index alone and only the page's rows are looked up; the total is
   * counted exactly up to `countCap` and reported as "at least" beyond it.
   */
  search(
    query: string,
    filters: SearchFilters = {},
    page: { limit?: number; offset?: number } = {},
  ): Promise<SearchPage> {
    return settle(() => {
      const limit = page.limit ?? 20;
      const offset = page.offset ?? 0;
      const match = toFtsQuery(query);
      if (!match) return { hits: [], total: 0, totalIsLowerBound: false, limit, offset };
      const { conditions, params } = filterConditions(filters);
      const filtered = conditions.length > 0;
      const where = ['sentences_fts MATCH @match', ...conditions].join(' AND ');
      const joins = `JOIN sentences s ON s.id = sentences_fts.rowid
        JOIN transcripts t ON t.id = s.transcript_id
        LEFT JOIN speakers sp ON sp.transcript_id = s.transcript_id AND sp.label = s.speaker`;
      const values = { ...params, match, limit, offset, cap: countCap + 1 };

      const ranked = (
        filtered
          ? this.db
              .prepare(
                `SELECT sentences_fts.rowid AS id, bm25(sentences_fts) AS rank FROM sentences_fts ${joins} WHERE ${where} ORDER BY rank, s.id LIMIT @limit OFFSET @offset`,
              )
              .all(values)
          : this.db
              .prepare(
                'SELECT rowid AS id, bm25(sentences_fts) AS rank FROM sentences_fts WHERE sentences_fts MATCH @match ORDER BY rank LIMIT @limit OFFSET @offset',
              )
              .all(values)
      ) as { id: number; rank: number }[];

      const rows = ranked.length === 0 ? [] : this.hitRows(ranked.map((r) => r.id));
      const byId = new Map(rows.map((row) => [row.id, row]));
      const terms = queryTerms(query);
      const hits = ranked.flatMap(({ id, rank }) => {
        const row = byId.get(id);
        if (!row) return [];
        return [
          {
            transcriptId: row.transcript_id,
            transcriptTitle: row.title,
            sentencePosition: row.position,
            startMs: row.start_ms,
            endMs: row.end_ms,
            speaker: row.speaker,
            speakerName: row.speaker_name,
            snippet: highlight(row.text, terms),
            rank,
          },
        ];
      });
      let total: number;
      if (offset === 0 && hits.length < limit) total = hits.length;
      else {
        const counted = this.db
          .prepare(
            filtered
              ? `SELECT count(*) AS n FROM (SELECT 1 FROM sentences_fts ${joins} WHERE ${where} LIMIT @cap)`
              : 'SELECT count(*) AS n FROM (SELECT 1 FROM sentences_fts WHERE sentences_fts MATCH @match LIMIT @cap)',
          )
          .get(values) as { n: number };
        total = counted.n;
      }
      const totalIsLowerBound = total > countCap;
      return { hits, total: Math.min(total, countCap), totalIsLowerBound, limit, offset };
    });
  }

  private hitRows(ids: number[]) {
    return this.db
      .prepare(
        `SELECT s.id, s.transcript_id, t.title, s.position, s.start_ms, s.end_ms, s.speaker, sp.name AS speaker_name, s.text
         FROM sentences s JOIN transcripts t ON t.id = s.transcript_id
         LEFT JOIN speakers sp ON sp.transcript_id = s.transcript_id AND sp.label = s.speaker
         WHERE s.id IN (${ids.map(() => '?').join(',')})`,
      )
      .all(...ids) as {
      id: number;
      transcript_id: string;
      title: string;
      position: number;
      start_ms: number;
      end_ms: number;
      speaker: string | null;
      speaker_name: string | null;
      text: string;
    }[];
  }

  private segments(table: 'sentences' | 'paragraphs', id: string): Segment[] {
    const rows = this.db
      .prepare(
        `SELECT position, start_ms, end_ms, speaker, confidence, text, words_json FROM ${table} WHERE transcript_id = ? ORDER BY position`,
      )
      .all(id) as {
      position: number;
      start_ms: number;
      end_ms: number;
      speaker: string | null;
      confidence: number | null;
      text: string;
      words_json: string;
    }[];
    return rows.map((row) => ({
      position: row.position,
      startMs: row.start_ms,
      endMs: row.end_ms,
      speaker: row.speaker,
      confidence: row.confidence,
      text: row.text,
      words: JSON.parse(row.words_json) as Word[],
    }));
  }

  private readJob(id: string): JobRecord | undefined {
    const row = this.db.prepare('SELECT * FROM transcripts WHERE id = ?').get(id) as
      TranscriptRow | undefined;
    return row ? this.toRecord(row) : undefined;
  }

  private requireJob(id: string): JobRecord {
    const record = this.readJob(id);
    if (!record) throw notFound(id);
    return record;
  }

  private toRecord(row: TranscriptRow): JobRecord {
    const tags = (
      this.db.prepare('SELECT tag FROM transcript_tags WHERE transcript_id = ? ORDER BY tag').all(row.id) as {
        tag: string;
      }[]
    ).map((t) => t.tag);
    const speakers = this.db
      .prepare('SELECT label, name FROM speakers WHERE transcript_id = ? ORDER BY label')
      .all(row.id) as { label: string; name: string | null }[];
    return {
      id: row.id,
      remoteId: row.remote_id,
      region: row.region,
      title: row.title,
      sourceKind: row.source_kind,
      source: row.source,
      audioPath: row.audio_path,
      status: row.status,
      error: row.error,
      languageCode: row.language_code,
      audioDurationMs: row.audio_duration_ms,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      completedAt: row.completed_at,
      tags,
      speakers,
      bytesTotal: row.bytes_total,
      bytesSent: row.bytes_sent,
      uploadUrl: row.upload_url,
      nextCheckAt: row.next_check_at,
      checks: row.checks,
      options: JSON.parse(row.options_json) as Record<string, unknown>,
    };
  }
}

/** Beyond this many matches the total is reported as "at least", which keeps counting cheap. */
export const countCap = 1000;

function filterConditions(filters: SearchFilters): { conditions: string[]; params: Record<string, unknown> } {
  const conditions: string[] = [];
  const params: Record<string, unknown> = {};
  if (filters.from !== undefined) {
    conditions.push('t.created_at >= @from');
    params.from = filters.from;
  }
  if (filters.to !== undefined) {
    conditions.push('t.created_at <= @to');
    params.to = filters.to;
  }
  if (filters.status) {
    conditions.push('t.status = @status');
    params.status = filters.status;
  }
  if (filters.language) {
    conditions.push("(t.language_code = @language OR t.language_code LIKE @languagePrefix ESCAPE '\\')");
    params.language = filters.language;
    params.languagePrefix = `${filters.language.replace(/[\\%_]/g, '\\$&')}\\_%`;
  }
  if (filters.tag) {
    conditions.push(
      'EXISTS (SELECT 1 FROM transcript_tags tt WHERE tt.transcript_id = t.id AND tt.tag = @tag)',
    );
    params.tag = filters.tag;
  }
  if (filters.speaker) {
    conditions.push('(s.speaker = @speaker OR sp.name = @speaker COLLATE NOCASE)');
    params.speaker = filters.speaker;
  }
  return { conditions, params };
}

/** Runs synchronous database work so that a failure arrives as a rejection, like async I/O. */
function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

function notFound(id: string): VerbatimError {
  return new VerbatimError('not_found', 'This transcript is no longer in your library.', { id });
}
