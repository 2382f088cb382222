import { VerbatimError } from '../../../shared/errors';
import type { Clock } from '../../base/clock';
import type { IDisposable } from '../../base/lifecycle';
import type { Library, NewsroomPublicationRecord, OutboxEntry } from '../library/library';
import { silentLogger, type Logger } from '../log/logger';
import type { NewsroomArchiveWriter, OutboxItem, Publication } from '../newsroom/publication';
import {
  cutHighlightClips,
  openPublishedRecording,
  uploadClip,
  verifyUploadedRecording,
  type NewsroomAudioWriter,
  type PublishedAudioSources,
} from './published-audio';

/** What the sender reads and records in the library's outbox. */
export type NewsroomOutbox = Pick<
  Library,
  | 'claimNewsroomItem'
  | 'renewNewsroomLease'
  | 'nextNewsroomItemDueAt'
  | 'newsroomItemApplied'
  | 'retryNewsroomItemLater'
  | 'newsroomItemFailed'
>;

/** How long to wait after the newsroom could not be reached: doubling from `firstMs` up to `maxMs`. */
export interface SenderBackoff {
  firstMs: number;
  maxMs: number;
}

export const defaultSenderBackoff: SenderBackoff = { firstMs: 2_000, maxMs: 5 * 60_000 };

export interface NewsroomSenderOptions {
  outbox: NewsroomOutbox;
  writer: NewsroomArchiveWriter;
  clock: Clock;
  /** Who this sender is in the outbox's leases: unique to it. */
  holder: string;
  /** Spreads the retries of many reporters' apps over time; Math.random unless a test fixes it. */
  random?: () => number;
  backoff?: SenderBackoff;
  /**
   * How long a claim on an item lasts unless renewed (30 s; renewed four times as often): a
   * sender that died holds nothing longer than this.
   */
  leaseMs?: number;
  /** Told of each transcript whose publication changed state (published, unpublished, failed). */
  onChange?: (publication: NewsroomPublicationRecord) => void;
  /** Item ids, revisions and error codes only: never a transcript's words. */
  logger?: Logger;
  /**
   * Where a publication's audio is read and sent: each highlight's clip, and the recording when
   * it was asked for. Without it, only the words are sent.
   */
  audio?: { writer: NewsroomAudioWriter; sources: PublishedAudioSources; chunkBytes?: number };
}

/** The delay before the try after `attempts` unreachable ones: exponential, capped, with jitter. */
export function backoffDelay(attempts: number, backoff: SenderBackoff, random: () => number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.firstMs * 2 ** attempts);
  // Between half and all of the ceiling: apps that lost the newsroom together do not return together.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function unreachable(error: unknown): error is VerbatimError {
  return error instanceof VerbatimError && (error.code === 'network' || error.code === 'timeout');
}

/**
 * Drains the library's newsroom outbox into the archive, oldest item first, each under a lease
 * so that two of the reporter's processes never send the same item at once. An item the
 * newsroom could not take for lack of a connection waits (backoff) and is tried again; one the
 * archive refused marks its transcript 'failed' with why, and the next item is sent. An applied
 * item leaves the outbox in the same transaction that records its revision, so a crash between
 * the archive applying it and the library forgetting it only sends it again, which the archive
 * ignores (it is keyed by transcript and revision). A publish leaves the outbox only once its
 * audio is in the archive too: a sender killed mid-upload leaves the item, and the next one
 * applies it again (a no-op) and sends only the chunks the archive does not hold.
 */
export class NewsroomSender implements IDisposable {
  private readonly random: () => number;
  private readonly backoff: SenderBackoff;
  private readonly leaseMs: number;
  private readonly log: Logger;
  /** Aborted for good by dispose(): no item is claimed after it. */
  private readonly lifetime = new AbortController();
  private running: Promise<void> | undefined;
  /** A drain was asked for while one ran: it goes round once more for what came meanwhile. */
  private again = false;
  /** Wakes the sender when the next item that backs off falls due. */
  private nextTry: IDisposable | undefined;

  constructor(private readonly options: NewsroomSenderOptions) {
    this.random = options.random ?? Math.random;
    this.backoff = options.backoff ?? defaultSenderBackoff;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.log = options.logger ?? silentLogger;
  }

  /**
   * Sends every item that is due. Resolves when the outbox is empty or what is left backs off
   * or is being sent by another process; the sender then wakes itself when the next falls due.
   * Rejects only when the library itself cannot be read or written.
   */
  drain(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async (): Promise<void> => {
      do {
        this.again = false;
        await this.sendDue();
      } while (this.again && !this.lifetime.signal.aborted);
      await this.wakeWhenDue();
    };
    this.running = run().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Starts a drain without waiting for it (after a publish, when the newsroom is back). */
  wake(): void {
    this.drain().catch((error: unknown) => {
      this.log.error('The newsroom outbox could not be read; it is tried again later.', {
        error: error instanceof Error ? error.message : String(error),
      });
      this.retryAfter(this.backoff.maxMs);
    });
  }

  /** Stops claiming items; an item on its way to the archive is still recorded when it arrives. */
  dispose(): void {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort();
    this.nextTry?.dispose();
    this.nextTry = undefined;
  }

  private async sendDue(): Promise<void> {
    const { outbox, holder } = this.options;
    while (!this.lifetime.signal.aborted) {
      const entry = await outbox.claimNewsroomItem(holder, this.leaseMs);
      if (!entry) return;
      await this.send(entry);
    }
  }

  private async send(entry: OutboxEntry): Promise<void> {
    const { outbox, writer, holder, clock } = this.options;
    const renewal = clock.setInterval(() => {
      // A renewal that fails only lets the lease run out: another sender may then send the
      // item again, which the archive ignores.
      outbox.renewNewsroomLease(entry.id, holder, this.leaseMs).catch(() => undefined);
    }, this.leaseMs / 4);
    let failure: { error: unknown } | undefined;
    let audioNote: string | null = null;
    try {
      audioNote = await this.applyWithAudio(writer, entry.item);
    } catch (error) {
      failure = { error };
    } finally {
      renewal.dispose();
    }
    const described = { item: entry.id, transcript: entry.transcriptId, revision: entry.revision };
    if (!failure) {
      this.log.info('The newsroom archive applied an item.', described);
      this.report(await outbox.newsroomItemApplied(entry, audioNote));
    } else if (unreachable(failure.error)) {
      const delay = backoffDelay(entry.attempts, this.backoff, this.random);
      this.log.warn('The newsroom could not be reached; the item is tried again later.', {
        ...described,
        code: failure.error.code,
        delay,
      });
      await outbox.retryNewsroomItemLater(entry, holder, delay, failure.error.message);
    } else {
      const { error } = failure;
      const message =
        error instanceof VerbatimError
          ? error.message
          : `The newsroom archive could not take this transcript (${error instanceof Error ? error.message : String(error)}).`;
      if (error instanceof VerbatimError)
        this.log.warn('The newsroom archive refused an item.', { ...described, code: error.code });
      // Not a refusal the archive put in words: a fault of ours, logged as one.
      else
        this.log.error('Sending an item to the newsroom failed unexpectedly.', {
          ...described,
          error: String(error),
        });
      this.report(await outbox.newsroomItemFailed(entry, message));
    }
  }

  /**
   * Applies the item and, for a publish, sends its audio: the highlights' clips, then the
   * recording (read from its file chunk by chunk, checked against the archive's copy after the
   * last). A recording no longer on this computer is published without: the returned sentences
   * say what of the audio was not sent.
   */
  private async applyWithAudio(writer: NewsroomArchiveWriter, item: OutboxItem): Promise<string | null> {
    const audio = this.options.audio;
    if (item.kind !== 'publish' || !audio) {
      await writer.apply(item);
      return null;
    }
    let publication: Publication = item.publication;
    const notes: string[] = [];
    const recording = publication.audio
      ? await openPublishedRecording(audio.sources, publication.transcriptId, publication.title)
      : undefined;
    try {
      if (recording && !recording.ok) {
        notes.push(recording.why);
        publication = { ...publication, audio: null };
      }
      await writer.apply({ kind: 'publish', publication });
      const target = { transcriptId: publication.transcriptId, revision: publication.revision };
      const { clips, skipped } = await cutHighlightClips(audio.sources, publication);
      notes.push(...skipped);
      for (const { highlight, bytes } of clips)
        await uploadClip(
          audio.writer,
          { ...target, clip: { highlight } },
          bytes.byteLength,
          (position, length) => Promise.resolve(bytes.slice(position, position + length)),
          audio.chunkBytes,
        );
      if (recording?.ok && publication.audio) {
        await uploadClip(
          audio.writer,
          { ...target, clip: 'recording' },
          publication.audio.byteLength,
          recording.file.read,
          audio.chunkBytes,
        );
        await verifyUploadedRecording(audio.writer, publication);
      }
    } finally {
      if (recording?.ok) await recording.file.close();
    }
    return notes.length > 0 ? notes.join(' ') : null;
  }

  private report(publication: NewsroomPublicationRecord | undefined): void {
    if (publication) this.options.onChange?.(publication);
  }

  private async wakeWhenDue(): Promise<void> {
    if (this.lifetime.signal.aborted) return;
    const due = await this.options.outbox.nextNewsroomItemDueAt();
    if (due !== undefined) this.retryAfter(Math.max(0, due - this.options.clock.now()));
  }

  private retryAfter(ms: number): void {
    if (this.lifetime.signal.aborted) return;
    this.nextTry?.dispose();
    this.nextTry = this.options.clock.setTimeout(() => {
      this.nextTry = undefined;
      this.wake();
    }, ms);
  }
}
