import { inWriteTransaction, type Db } from './database';
import { VerbatimError } from '../../../shared/errors';
import { outboxItemSchema, type OutboxItem, type Publication } from '../newsroom/publication';
import { rowMapping, value } from './row-mapping';
import { statement } from './statement-cache';
import type { JobStore } from './job-store';

/**
 * Where a transcript stands with the newsroom archive. 'unpublished' is a transcript taken out
 * of the archive: its row stays so that its next publish goes on from the last revision (the
 * archive keys items by revision and ignores one it has already passed).
 */
export type NewsroomPublicationState = 'waiting' | 'published' | 'failed' | 'unpublishing' | 'unpublished';

export interface NewsroomPublicationRecord {
  transcriptId: string;
  desk: string;
  confidential: boolean;
  withAudio: boolean;
  /** The revision of the last publish or unpublish the reporter asked for. */
  revisionRequested: number;
  /** The revision the archive holds, or null when it holds none. */
  revisionPublished: number | null;
  state: NewsroomPublicationState;
  /** Why the archive refused the last item, when `state` is 'failed'. */
  error: string | null;
  /** What of the audio asked for did not go with the publication, and why, in sentences; else null. */
  audioNote: string | null;
  updatedAt: number;
}

/** One item of the outbox, as a sender claimed it. */
export interface OutboxEntry {
  id: number;
  transcriptId: string;
  revision: number;
  item: OutboxItem;
  /** Tries that ended in an unreachable or silent newsroom. */
  attempts: number;
}

/** What waits in the outbox, as `newsroom outbox` lists it. */
export interface WaitingOutboxItem {
  transcriptId: string;
  kind: OutboxItem['kind'];
  revision: number;
  /** Tries that ended in an unreachable or silent newsroom. */
  attempts: number;
  /** Why the last try did not reach the newsroom, or null before the first try. */
  lastError: string | null;
  /** When it is tried next (ms since the epoch). */
  nextAttemptAt: number;
  /** The sender sending it now, or null. */
  leaseHolder: string | null;
}

/** What a publish asks for beyond the publication itself. */
export type PublicationContent = Omit<Publication, 'revision'>;

const publicationRow = rowMapping({
  transcriptId: value<string>('transcript_id'),
  desk: value<string>('desk'),
  confidential: value<number>('confidential'),
  withAudio: value<number>('with_audio'),
  revisionRequested: value<number>('revision_requested'),
  revisionPublished: value<number | null>('revision_published'),
  state: value<NewsroomPublicationState>('state'),
  error: value<string | null>('error'),
  audioNote: value<string | null>('audio_note'),
  updatedAt: value<number>('updated_at'),
});

function toPublication(row: unknown): NewsroomPublicationRecord {
  const record = publicationRow.fromRow(row);
  return { ...record, confidential: record.confidential === 1, withAudio: record.withAudio === 1 };
}

interface OutboxRow {
  id: number;
  transcript_id: string;
  revision: number;
  item_json: string;
  attempts: number;
}

/**
 * The newsroom outbox (017-newsroom-outbox): the intents to publish and unpublish, each written
 * with the transcript's new revision and state in one transaction, and what the sender records
 * of each try. Synchronous; the Library facade makes it async.
 */
export class NewsroomOutboxStore {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobStore,
    private readonly now: () => number,
  ) {}

  /**
   * Queues the publication as the transcript's next revision, replacing an item of the same
   * transcript still waiting (the archive only needs the newest), and marks it 'waiting'.
   */
  queuePublish(
    content: PublicationContent,
    withAudio: boolean,
    audioNote: string | null = null,
  ): NewsroomPublicationRecord {
    const id = content.transcriptId;
    return inWriteTransaction(this.db, () => {
      const job = this.jobs.require(id);
      if (job.status !== 'completed')
        throw new VerbatimError(
          'invalid_input',
          `"${job.title}" is not finished yet, so there is nothing to publish.`,
          { id },
        );
      const revision = (this.publication(id)?.revisionRequested ?? 0) + 1;
      const item = outboxItemSchema.parse({ kind: 'publish', publication: { ...content, revision } });
      this.enqueue(id, revision, item);
      statement(
        this.db,
        `INSERT INTO newsroom_publications (transcript_id, desk, confidential, with_audio, revision_requested, state, error, audio_note, updated_at)
           VALUES (@id, @desk, @confidential, @withAudio, @revision, 'waiting', NULL, @audioNote, @now)
           ON CONFLICT (transcript_id) DO UPDATE SET desk = excluded.desk, confidential = excluded.confidential,
             with_audio = excluded.with_audio, revision_requested = excluded.revision_requested,
             state = 'waiting', error = NULL, audio_note = excluded.audio_note, updated_at = excluded.updated_at`,
      ).run({
        id,
        desk: content.desk,
        confidential: content.confidential ? 1 : 0,
        withAudio: withAudio ? 1 : 0,
        revision,
        audioNote,
        now: this.now(),
      });
      return this.publication(id)!;
    });
  }

  /** Queues taking the transcript out of the archive, ordered after every publish asked before. */
  queueUnpublish(id: string): NewsroomPublicationRecord {
    return inWriteTransaction(this.db, () => {
      const job = this.jobs.require(id);
      const publication = this.publication(id);
      if (!publication || publication.state === 'unpublished')
        throw new VerbatimError(
          'invalid_input',
          `"${job.title}" is not in the newsroom archive, so there is nothing to unpublish.`,
          { id },
        );
      const revision = publication.revisionRequested + 1;
      this.enqueue(id, revision, outboxItemSchema.parse({ kind: 'unpublish', transcriptId: id, revision }));
      statement(
        this.db,
        `UPDATE newsroom_publications SET revision_requested = ?, state = 'unpublishing', error = NULL, updated_at = ?
           WHERE transcript_id = ?`,
      ).run(revision, this.now(), id);
      return this.publication(id)!;
    });
  }

  private enqueue(id: string, revision: number, item: OutboxItem): void {
    // A fresh row, not the old one updated: a sender applying the old one deletes only its own.
    statement(this.db, 'DELETE FROM newsroom_outbox WHERE transcript_id = ?').run(id);
    statement(
      this.db,
      'INSERT INTO newsroom_outbox (transcript_id, revision, item_json, created_at) VALUES (?, ?, ?, ?)',
    ).run(id, revision, JSON.stringify(item), this.now());
  }

  publication(id: string): NewsroomPublicationRecord | undefined {
    const row = statement(
      this.db,
      `SELECT ${publicationRow.columns} FROM newsroom_publications WHERE transcript_id = ?`,
    ).get(id);
    return row ? toPublication(row) : undefined;
  }

  /** The desk this library published to last, or undefined before its first publish. */
  lastDesk(): string | undefined {
    const row = statement(
      this.db,
      'SELECT desk FROM newsroom_publications ORDER BY updated_at DESC, rowid DESC LIMIT 1',
    ).get() as { desk: string } | undefined;
    return row?.desk;
  }

  /** The publications of these transcripts, by id (those never published are absent). */
  publications(ids: readonly string[]): Map<string, NewsroomPublicationRecord> {
    const rows = statement(
      this.db,
      `SELECT ${publicationRow.columns} FROM newsroom_publications WHERE transcript_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids));
    return new Map(rows.map(toPublication).map((record) => [record.transcriptId, record]));
  }

  /**
   * Takes the oldest item that is due and not being sent by another holder, under `holder`'s
   * lease for `leaseMs`; undefined when there is none.
   */
  claimNext(holder: string, leaseMs: number): OutboxEntry | undefined {
    const now = this.now();
    const row = statement(
      this.db,
      `UPDATE newsroom_outbox SET lease_holder = @holder, lease_until = @until
         WHERE id = (SELECT id FROM newsroom_outbox
                      WHERE next_attempt_at <= @now AND (lease_holder IS NULL OR lease_until <= @now)
                      ORDER BY created_at, id LIMIT 1)
         RETURNING id, transcript_id, revision, item_json, attempts`,
    ).get({ holder, until: now + leaseMs, now }) as OutboxRow | undefined;
    if (!row) return undefined;
    return {
      id: row.id,
      transcriptId: row.transcript_id,
      revision: row.revision,
      item: outboxItemSchema.parse(JSON.parse(row.item_json)),
      attempts: row.attempts,
    };
  }

  /** Extends `holder`'s lease on the item; false when it is gone or another holder took it. */
  renewLease(id: number, holder: string, leaseMs: number): boolean {
    return (
      statement(this.db, 'UPDATE newsroom_outbox SET lease_until = ? WHERE id = ? AND lease_holder = ?').run(
        this.now() + leaseMs,
        id,
        holder,
      ).changes === 1
    );
  }

  /**
   * When the next item not being sent falls due (ms since the epoch), or undefined when the
   * outbox is empty; an item under another holder's lease counts from the lease's end.
   */
  nextDueAt(): number | undefined {
    const row = statement(
      this.db,
      'SELECT min(max(next_attempt_at, coalesce(lease_until, 0))) AS at FROM newsroom_outbox',
    ).get() as { at: number | null };
    return row.at ?? undefined;
  }

  /** Every item that waits, oldest first. */
  waiting(): WaitingOutboxItem[] {
    const rows = statement(
      this.db,
      `SELECT transcript_id, revision, item_json, attempts, last_error, next_attempt_at, lease_holder, lease_until
         FROM newsroom_outbox ORDER BY created_at, id`,
    ).all() as (OutboxRow & {
      last_error: string | null;
      next_attempt_at: number;
      lease_holder: string | null;
      lease_until: number | null;
    })[];
    const now = this.now();
    return rows.map((row) => ({
      transcriptId: row.transcript_id,
      kind: outboxItemSchema.parse(JSON.parse(row.item_json)).kind,
      revision: row.revision,
      attempts: row.attempts,
      lastError: row.last_error,
      nextAttemptAt: row.next_attempt_at,
      // A lease that ran out holds nothing.
      leaseHolder: row.lease_until !== null && row.lease_until > now ? row.lease_holder : null,
    }));
  }

  /**
   * Every item backing off is due now: the newsroom is back, or the reporter asked to send
   * (a publish, `newsroom outbox --send`). Returns how many were waiting for their next try.
   */
  retryAllNow(): number {
    return statement(
      this.db,
      'UPDATE newsroom_outbox SET next_attempt_at = 0 WHERE next_attempt_at > 0',
    ).run().changes;
  }

  /** Frees the items these holders claimed: they died (a process killed) and send nothing more. */
  releaseLeasesOf(holders: readonly string[]): number {
    return statement(
      this.db,
      `UPDATE newsroom_outbox SET lease_holder = NULL, lease_until = NULL
         WHERE lease_holder IN (SELECT value FROM json_each(?))`,
    ).run(JSON.stringify(holders)).changes;
  }

  /** How many items wait, for the tests and the status line. */
  pendingCount(): number {
    return (statement(this.db, 'SELECT count(*) AS n FROM newsroom_outbox').get() as { n: number }).n;
  }

  /**
   * The archive applied the item: it leaves the outbox and the archive's revision is recorded,
   * in one transaction. The transcript is 'published' (or 'unpublished') only if no newer intent
   * was asked for meanwhile; otherwise it keeps waiting for that one. `audioNote` (the sender's
   * sentences on audio it could not send) follows the one written when it was queued.
   */
  applied(entry: OutboxEntry, audioNote: string | null = null): NewsroomPublicationRecord | undefined {
    return inWriteTransaction(this.db, () => {
      statement(this.db, 'DELETE FROM newsroom_outbox WHERE id = ?').run(entry.id);
      const publishing = entry.item.kind === 'publish';
      statement(
        this.db,
        `UPDATE newsroom_publications
            SET revision_published = CASE WHEN @publishing THEN max(coalesce(revision_published, 0), @revision) ELSE NULL END,
                state = CASE WHEN revision_requested = @revision THEN @done ELSE state END,
                error = CASE WHEN revision_requested = @revision THEN NULL ELSE error END,
                audio_note = CASE WHEN revision_requested = @revision AND @audioNote IS NOT NULL
                                  THEN ltrim(coalesce(audio_note, '') || ' ' || @audioNote) ELSE audio_note END,
                updated_at = @now
          WHERE transcript_id = @id AND revision_requested >= @revision`,
      ).run({
        publishing: publishing ? 1 : 0,
        revision: entry.revision,
        done: publishing ? 'published' : 'unpublished',
        audioNote,
        now: this.now(),
        id: entry.transcriptId,
      });
      return this.publication(entry.transcriptId);
    });
  }

  /** The newsroom could not be reached: the item is tried again after `delayMs`. */
  retryLater(entry: OutboxEntry, holder: string, delayMs: number, message: string): void {
    statement(
      this.db,
      `UPDATE newsroom_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?,
              lease_holder = NULL, lease_until = NULL
         WHERE id = ? AND lease_holder = ?`,
    ).run(this.now() + delayMs, message, entry.id, holder);
  }

  /**
   * The archive refused the item: it leaves the outbox, and the transcript shows 'failed' with
   * why, unless a newer intent waits (that one is sent instead).
   */
  failed(entry: OutboxEntry, message: string): NewsroomPublicationRecord | undefined {
    return inWriteTransaction(this.db, () => {
      statement(this.db, 'DELETE FROM newsroom_outbox WHERE id = ?').run(entry.id);
      statement(
        this.db,
        `UPDATE newsroom_publications SET state = 'failed', error = ?, updated_at = ?
           WHERE transcript_id = ? AND revision_requested = ?`,
      ).run(message, this.now(), entry.transcriptId, entry.revision);
      return this.publication(entry.transcriptId);
    });
  }
}
