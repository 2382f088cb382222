import { hostname } from 'node:os';
import { VerbatimError } from '../../../shared/errors';
import type { Clock } from '../../base/clock';
import type { IDisposable } from '../../base/lifecycle';
import type { Library, NewsroomPublicationRecord } from '../library/library';
import type { Logger } from '../log/logger';
import { newsroomAddressText, type NewsroomAccess } from '../newsroom/newsroom-address';
import {
  NewsroomArchive,
  type AudioChunk,
  type AudioClip,
  type AudioProgress,
} from '../newsroom/newsroom-archive';
import { NewsroomConnection, type NewsroomBounds } from '../newsroom/newsroom-connection';
import type { NewsroomArchiveWriter, OutboxItem } from '../newsroom/publication';
import { NewsroomSender, type SenderBackoff } from './newsroom-sender';
import { publishTranscript, unpublishTranscript, type PublishOptions } from './build-publication';
import type { AudioDigest, NewsroomAudioWriter, PublishedAudioSources } from './published-audio';

export interface NewsroomPublisherOptions {
  library: Library;
  /**
   * The newsroom to publish to, read at each send (Settings can change it), or undefined when
   * none is set: publishing then only queues, and the sender is idle until one is.
   */
  access: () => NewsroomAccess | undefined;
  clock: Clock;
  logger?: Logger;
  bounds?: NewsroomBounds;
  backoff?: SenderBackoff;
  /** A publication changed: queued here, or sent, refused or taken out by the sender. */
  onChange?: (publication: NewsroomPublicationRecord) => void;
  /** Where the recordings are read for the audio that goes with each publication. */
  audio: PublishedAudioSources;
  /** How much audio goes in one chunk (1 MiB unless a test asks for smaller). */
  audioChunkBytes?: number;
}

/** A sender's name in the outbox's leases: this machine and process, so a later run can tell it died. */
export function senderHolderName(pid: number = process.pid): string {
  return `${hostname()}/${pid}`;
}

/** Whether the process `pid` of this machine is still running. */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holders among these that were processes of this machine and are gone (killed, crashed). */
export function deadHolders(holders: readonly string[]): string[] {
  const here = `${hostname()}/`;
  return holders.filter((holder) => {
    if (!holder.startsWith(here)) return false;
    const pid = Number(holder.slice(here.length));
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processRuns(pid);
  });
}

/**
 * The archive at the newsroom set now: one connection, kept while the address and password stay
 * the same and replaced (the old one closed) when they change.
 */
class ConfiguredArchive implements NewsroomArchiveWriter, NewsroomAudioWriter {
  private current: { key: string; connection: NewsroomConnection; archive: NewsroomArchive } | undefined;

  constructor(
    private readonly access: () => NewsroomAccess | undefined,
    private readonly bounds: NewsroomBounds | undefined,
  ) {}

  apply(item: OutboxItem): Promise<void> {
    return this.archive().apply(item);
  }

  putAudioChunk(chunk: AudioChunk): Promise<void> {
    return this.archive().putAudioChunk(chunk);
  }

  audioProgress(transcriptId: string, revision: number, clip: AudioClip): Promise<AudioProgress> {
    return this.archive().audioProgress(transcriptId, revision, clip);
  }

  audioDigest(transcriptId: string, revision: number, clip: AudioClip): Promise<AudioDigest> {
    return this.archive().audioDigest(transcriptId, revision, clip);
  }

  private archive(): NewsroomArchive {
    const access = this.access();
    if (!access)
      throw new VerbatimError(
        'network',
        'No newsroom is set up: set its address and password, and what waits is published.',
      );
    const key = `${newsroomAddressText(access.address)}\n${access.password}`;
    if (this.current?.key !== key) {
      void this.current?.connection.close();
      const connection = new NewsroomConnection(access.address, access.password, this.bounds);
      this.current = { key, connection, archive: new NewsroomArchive(connection) };
    }
    return this.current.archive;
  }

  close(): Promise<void> {
    const closing = this.current?.connection.close() ?? Promise.resolve();
    this.current = undefined;
    return closing;
  }
}

/**
 * Publishing offline first, as the app and the command line run it (issue #35, point 5): a
 * NewsroomSender whose writer is the real archive at the newsroom set now. Publishing queues in
 * the library whether or not a newsroom is set or reachable; `kick` sends what waits.
 */
export class NewsroomPublisher implements IDisposable {
  readonly holder = senderHolderName();
  private readonly archive: ConfiguredArchive;
  private readonly sender: NewsroomSender;
  private disposed = false;

  constructor(private readonly options: NewsroomPublisherOptions) {
    this.archive = new ConfiguredArchive(options.access, options.bounds);
    this.sender = new NewsroomSender({
      outbox: options.library,
      writer: this.archive,
      clock: options.clock,
      holder: this.holder,
      backoff: options.backoff,
      logger: options.logger,
      onChange: options.onChange,
      audio: { writer: this.archive, sources: options.audio, chunkBytes: options.audioChunkBytes },
    });
  }

  /** Queues the transcript's next revision (offline first) and sends it if the newsroom answers. */
  async publish(id: string, options: PublishOptions): Promise<NewsroomPublicationRecord> {
    const queued = await publishTranscript(this.options.library, id, options, this.options.audio);
    this.options.onChange?.(queued);
    this.wake();
    return queued;
  }

  /** Queues taking the transcript out of the archive and sends it if the newsroom answers. */
  async unpublish(id: string): Promise<NewsroomPublicationRecord> {
    const queued = await unpublishTranscript(this.options.library, id);
    this.options.onChange?.(queued);
    this.wake();
    return queued;
  }

  /** Whether a newsroom is set: without one, nothing is sent and what is published waits. */
  get configured(): boolean {
    return this.options.access() !== undefined;
  }

  /**
   * Sends what waits now, whatever its backoff (something was published, the newsroom came back,
   * the reporter asked), and takes over what a dead process of this machine had claimed.
   * Resolves when the outbox is empty or what is left waits for the newsroom; idle, and
   * resolving at once, when no newsroom is set.
   */
  async kick(): Promise<void> {
    if (this.disposed || !this.configured) return;
    const { library } = this.options;
    const holders = (await library.newsroomOutbox()).flatMap((item) =>
      item.leaseHolder ? [item.leaseHolder] : [],
    );
    const dead = deadHolders(holders);
    if (dead.length > 0) await library.releaseNewsroomLeasesOf(dead);
    await library.retryNewsroomItemsNow();
    await this.sender.drain();
  }

  /** As `kick`, without waiting; a library that cannot be read is logged and tried again later. */
  wake(): void {
    this.kick().catch((error: unknown) =>
      this.options.logger?.error('The newsroom outbox could not be sent.', {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  /** Stops sending and closes the connection; what waits stays in the library for the next start. */
  async close(): Promise<void> {
    this.dispose();
    await this.archive.close();
  }

  dispose(): void {
    this.disposed = true;
    this.sender.dispose();
  }
}
