import { inWriteTransaction, type Db } from './database';
import { VerbatimError } from '../../../shared/errors';
import type { JobStatus, Region, TranscriptSummary } from '../../../shared/library';
import { z } from 'zod';
import { json, rowMapping, value } from './row-mapping';
import { statement } from './statement-cache';

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

/** A transcript's own columns; its tags, speakers and review counts are read beside it. */
const transcriptRow = rowMapping({
  id: value<string>('id'),
  remoteId: value<string | null>('remote_id'),
  region: value<Region>('region'),
  title: value<string>('title'),
  sourceKind: value<'file' | 'url'>('source_kind'),
  source: value<string>('source'),
  audioPath: value<string | null>('audio_path'),
  status: value<JobStatus>('status'),
  error: value<string | null>('error'),
  languageCode: value<string | null>('language_code'),
  audioDurationMs: value<number | null>('audio_duration_ms'),
  createdAt: value<number>('created_at'),
  updatedAt: value<number>('updated_at'),
  completedAt: value<number | null>('completed_at'),
  bytesTotal: value<number | null>('bytes_total'),
  bytesSent: value<number>('bytes_sent'),
  uploadUrl: value<string | null>('upload_url'),
  nextCheckAt: value<number | null>('next_check_at'),
  checks: value<number>('checks'),
  options: json('options_json', z.record(z.string(), z.unknown())),
  newsroomReporter: value<string | null>('newsroom_reporter'),
  newsroomTranscriptId: value<string | null>('newsroom_transcript_id'),
  newsroomDesk: value<string | null>('newsroom_desk'),
  newsroomRevision: value<number | null>('newsroom_revision'),
  newsroomKeptAt: value<number | null>('newsroom_kept_at'),
});

const patchColumns: Record<keyof JobPatch, string> = {
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

const unfinished = "status NOT IN ('completed', 'error', 'cancelled')";

/** What every part of Verbatim says of a transcript that is not (or no longer) in the library. */
export function transcriptNotFound(id: string): VerbatimError {
  return new VerbatimError('not_found', 'This transcript is no longer in your library.', { id });
}

/**
 * The jobs: one row a transcript with what the scheduler keeps about it (status, remote id,
 * upload progress, next check) and what the reporter sets (title, tags, speaker names, where
 * the recording is). Synchronous; the Library facade makes it async.
 */
export interface JobListOptions {
  status?: JobStatus;
  limit?: number;
  offset?: number;
  /** The job listed last on the page before: the list goes on after it. */
  after?: { createdAt: number; id: string };
}

export class JobStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  create(job: NewJob): JobRecord {
    const at = this.now();
    statement(
      this.db,
      `INSERT INTO transcripts (id, region, title, source_kind, source, audio_path, status, options_json, created_at, updated_at, bytes_total)
         VALUES (@id, @region, @title, @sourceKind, @source, @audioPath, @status, @options, @at, @at, @bytesTotal)`,
    ).run({ ...job, options: JSON.stringify(job.options), at, bytesTotal: job.bytesTotal ?? null });
    return this.require(job.id);
  }

  update(id: string, patch: JobPatch): JobRecord {
    const sets: string[] = ['updated_at = @updatedAt'];
    const values: Record<string, unknown> = { id, updatedAt: this.now() };
    for (const [key, column] of Object.entries(patchColumns) as [keyof JobPatch, string][]) {
      if (patch[key] !== undefined) {
        sets.push(`${column} = @${key}`);
        values[key] = patch[key];
      }
    }
    this.changeOne(id, `UPDATE transcripts SET ${sets.join(', ')} WHERE id = @id`, values);
    return this.require(id);
  }

  get(id: string): JobRecord | undefined {
    const row = statement(this.db, `SELECT ${transcriptRow.columns} FROM transcripts WHERE id = ?`).get(id);
    return row ? this.toRecords([row])[0] : undefined;
  }

  /** The job, or the one "no longer in your library" error. */
  require(id: string): JobRecord {
    const record = this.get(id);
    if (!record) throw transcriptNotFound(id);
    return record;
  }

  /**
   * The newest first. `after` (the last job of the page before) pages through the whole library
   * without skipping or repeating a job when another process adds one meanwhile, as an offset would.
   */
  list(options: JobListOptions = {}): JobRecord[] {
    const conditions = [
      ...(options.status ? ['status = @status'] : []),
      ...(options.after
        ? ['(created_at < @afterCreatedAt OR (created_at = @afterCreatedAt AND id > @afterId))']
        : []),
    ];
    const rows = statement(
      this.db,
      `SELECT ${transcriptRow.columns} FROM transcripts ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
         ORDER BY created_at DESC, id LIMIT @limit OFFSET @offset`,
    ).all({
      status: options.status,
      afterCreatedAt: options.after?.createdAt,
      afterId: options.after?.id,
      limit: options.limit ?? 1000,
      offset: options.offset ?? 0,
    });
    return this.toRecords(rows);
  }

  /** Every name the reporter gave a speaker, once each, in alphabetical order. */
  speakerNames(): string[] {
    const rows = statement(
      this.db,
      'SELECT DISTINCT name FROM speakers WHERE name IS NOT NULL ORDER BY name',
    ).all() as { name: string }[];
    return rows.map((row) => row.name);
  }

  /** Every job the scheduler has not finished: what to resume at start. */
  unfinished(): JobRecord[] {
    const rows = statement(
      this.db,
      `SELECT ${transcriptRow.columns} FROM transcripts WHERE ${unfinished} ORDER BY created_at`,
    ).all();
    return this.toRecords(rows);
  }

  renameSpeaker(id: string, label: string, name: string): void {
    const trimmed = name.trim();
    if (!trimmed) throw new VerbatimError('invalid_input', 'A speaker needs a name.');
    this.require(id);
    statement(
      this.db,
      'INSERT INTO speakers (transcript_id, label, name) VALUES (?, ?, ?) ON CONFLICT (transcript_id, label) DO UPDATE SET name = excluded.name',
    ).run(id, label, trimmed);
  }

  setTitle(id: string, title: string): void {
    const trimmed = title.trim();
    if (!trimmed) throw new VerbatimError('invalid_input', 'A transcript needs a title.');
    this.changeOne(id, 'UPDATE transcripts SET title = ?, updated_at = ? WHERE id = ?', [
      trimmed,
      this.now(),
      id,
    ]);
  }

  setTags(id: string, tags: string[]): void {
    this.require(id);
    const unique = [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];
    inWriteTransaction(this.db, () => {
      statement(this.db, 'DELETE FROM transcript_tags WHERE transcript_id = ?').run(id);
      const insert = statement(
        this.db,
        'INSERT OR IGNORE INTO transcript_tags (transcript_id, tag) VALUES (?, ?)',
      );
      for (const tag of unique) insert.run(id, tag);
    });
  }

  /** Points a transcript at its recording's new place after the file was moved. */
  relink(id: string, audioPath: string): void {
    this.changeOne(id, 'UPDATE transcripts SET audio_path = ?, updated_at = ? WHERE id = ?', [
      audioPath,
      this.now(),
      id,
    ]);
  }

  /** Marks the job to be deleted on the service once it may be, then here (016-job-intents). */
  requestRemoteDeletion(id: string): void {
    this.changeOne(id, 'UPDATE transcripts SET delete_remotely = 1, updated_at = ? WHERE id = ?', [
      this.now(),
      id,
    ]);
  }

  /** The ids of the jobs marked to be deleted on the service. */
  remoteDeletionsRequested(): Set<string> {
    const rows = statement(this.db, 'SELECT id FROM transcripts WHERE delete_remotely = 1').all() as {
      id: string;
    }[];
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Takes the lease on sending the job's recording for `holder` (016-job-intents), unless
   * another holder's lease is still fresh: then that process is sending it. True when taken.
   */
  claimUploadLease(id: string, holder: string, leaseMs: number): boolean {
    const now = this.now();
    const taken = statement(
      this.db,
      `UPDATE transcripts SET upload_holder = ?, upload_lease_until = ?
         WHERE id = ? AND (upload_holder IS NULL OR upload_holder = ? OR upload_lease_until <= ?)`,
    ).run(holder, now + leaseMs, id, holder, now);
    return taken.changes === 1;
  }

  /** Extends `holder`'s lease; false when it is no longer theirs (another took it over). */
  renewUploadLease(id: string, holder: string, leaseMs: number): boolean {
    const renewed = statement(
      this.db,
      'UPDATE transcripts SET upload_lease_until = ? WHERE id = ? AND upload_holder = ?',
    ).run(this.now() + leaseMs, id, holder);
    return renewed.changes === 1;
  }

  /** Ends `holder`'s lease, if they still hold it: whoever sends the folder's jobs may send it. */
  releaseUploadLease(id: string, holder: string): void {
    statement(
      this.db,
      'UPDATE transcripts SET upload_holder = NULL, upload_lease_until = NULL WHERE id = ? AND upload_holder = ?',
    ).run(id, holder);
  }

  /** Deletes the transcript; its sentences, paragraphs, tags and speakers go with it. */
  delete(id: string): void {
    this.changeOne(id, 'DELETE FROM transcripts WHERE id = ?', [id]);
  }

  /** Runs a statement that must change the job's row, or says the job is gone. */
  private changeOne(id: string, sql: string, values: Record<string, unknown> | unknown[]): void {
    const prepared = statement(this.db, sql);
    const result = Array.isArray(values) ? prepared.run(...values) : prepared.run(values);
    if (result.changes === 0) throw transcriptNotFound(id);
  }

  /**
   * The jobs of these rows, with their tags, speakers and review counts read for all of them at
   * once: a list of a thousand transcripts runs four statements, not three per transcript.
   */
  private toRecords(rows: unknown[]): JobRecord[] {
    const jobs = rows.map(transcriptRow.fromRow);
    const ids = JSON.stringify(jobs.map((job) => job.id));
    const tags = groupBy(
      statement(
        this.db,
        'SELECT transcript_id, tag FROM transcript_tags WHERE transcript_id IN (SELECT value FROM json_each(?)) ORDER BY tag',
      ).all(ids) as { transcript_id: string; tag: string }[],
      (row) => row.tag,
    );
    const speakers = groupBy(
      statement(
        this.db,
        'SELECT transcript_id, label, name FROM speakers WHERE transcript_id IN (SELECT value FROM json_each(?)) ORDER BY label',
      ).all(ids) as { transcript_id: string; label: string; name: string | null }[],
      (row) => ({ label: row.label, name: row.name }),
    );
    const reviews = new Map(
      (
        statement(
          this.db,
          `SELECT ids.value AS id,
                  (SELECT count(*) FROM paragraphs WHERE transcript_id = ids.value) AS paragraphs,
                  (SELECT count(*) FROM paragraph_checks WHERE transcript_id = ids.value) AS checked,
                  (SELECT count(*) FROM transcript_edits WHERE transcript_id = ids.value AND undone_at IS NULL) AS corrections
             FROM json_each(?) ids`,
        ).all(ids) as { id: string; paragraphs: number; checked: number; corrections: number }[]
      ).map((review) => [review.id, review]),
    );
    return jobs.map((job) => {
      const review = reviews.get(job.id)!;
      // In the order the command line's JSON has always printed them.
      const {
        bytesTotal,
        bytesSent,
        uploadUrl,
        nextCheckAt,
        checks,
        options,
        newsroomReporter,
        newsroomTranscriptId,
        newsroomDesk,
        newsroomRevision,
        newsroomKeptAt,
        ...described
      } = job;
      const fromNewsroom =
        newsroomReporter === null
          ? undefined
          : {
              reporter: newsroomReporter,
              transcriptId: newsroomTranscriptId ?? '',
              desk: newsroomDesk ?? '',
              revision: newsroomRevision ?? 0,
              keptAt: newsroomKeptAt ?? 0,
            };
      return {
        ...described,
        tags: tags.get(job.id) ?? [],
        speakers: speakers.get(job.id) ?? [],
        bytesTotal,
        bytesSent,
        corrections: review.corrections,
        review: { checked: Math.min(review.checked, review.paragraphs), paragraphs: review.paragraphs },
        ...(fromNewsroom ? { fromNewsroom } : {}),
        uploadUrl,
        nextCheckAt,
        checks,
        options,
      };
    });
  }
}

/** Each transcript's rows, in the order read. */
function groupBy<Row extends { transcript_id: string }, T>(
  rows: Row[],
  pick: (row: Row) => T,
): Map<string, T[]> {
  const byTranscript = new Map<string, T[]>();
  for (const row of rows) {
    const list = byTranscript.get(row.transcript_id);
    if (list) list.push(pick(row));
    else byTranscript.set(row.transcript_id, [pick(row)]);
  }
  return byTranscript;
}
