import { VerbatimError } from '../../../shared/errors';
import { Signal } from '../../base/signal';
import {
  newsroomAddressText,
  parseNewsroomAddress,
  settingsNaming,
  type NewsroomAccess,
  type NewsroomAddress,
} from './newsroom-address';
import { newsroomPasswordMissing } from './newsroom-check';
import { NewsroomConnection, type NewsroomBounds } from './newsroom-connection';
import { watchNewsroom, type NewsroomWatch } from './newsroom-watch';

/** The address as Settings has it, checked before anything connects; the password is never in it. */
export function settingsAddressIn(text: string): NewsroomAddress {
  if (text.trim() === '')
    throw new VerbatimError(
      'invalid_input',
      "Enter the newsroom's address first, such as postgres://reporter@db.example.org:5432/verbatim.",
    );
  return parseNewsroomAddress(text, 'The newsroom address', settingsNaming);
}

/** The newsroom Settings names, or the sentence that says what is missing there. */
export function settingsNewsroomAccess(addressText: string, password: string | undefined): NewsroomAccess {
  if (addressText === '')
    throw new VerbatimError(
      'not_found',
      "No newsroom is set yet: enter its address and your password in Settings, as your newsroom's administrator gave them.",
    );
  const address = settingsAddressIn(addressText);
  if (password === undefined) throw newsroomPasswordMissing(address.user);
  return { address, password };
}

export interface NewsroomReaderOptions {
  /** The newsroom of Settings now, read at each use; throws the sentence when none is set. */
  access: () => Promise<NewsroomAccess>;
  bounds?: NewsroomBounds;
  /** Told when a watch's connection is lost (it reconnects by itself), for the log. */
  onWatchLost?: (error: unknown) => void;
  /** How long a lost watch waits before connecting again (tests shorten it). */
  watchRetryMs?: number;
}

/** What tells one newsroom login from another: a connection kept for one is not used for the other. */
export function accessKey(access: NewsroomAccess): string {
  return `${newsroomAddressText(access.address)}\n${access.password}`;
}

/**
 * Reading the newsroom of Settings from the app (issue #35, points 6 and 7): one pool kept open
 * for every search and open, so that typing does not pay a login per key, and one LISTEN while
 * any page shows a newsroom search. Both are replaced when Settings name another newsroom or
 * password (`refresh`), and closed with the app (`close`).
 */
export class NewsroomReader {
  /** The archive changed (a publish, a republish, an unpublish): open searches run again. */
  readonly changed = new Signal<void>();
  private connection: { key: string; newsroom: NewsroomConnection } | undefined;
  private watch: { key: string; watch: NewsroomWatch } | undefined;
  private readonly watchers = new Set<string>();
  private closed = false;

  constructor(private readonly options: NewsroomReaderOptions) {}

  /** Runs `work` on the kept connection, opening it (or replacing a stale one) first. */
  async use<T>(work: (newsroom: NewsroomConnection) => Promise<T>): Promise<T> {
    if (this.closed) throw new VerbatimError('cancelled', 'Verbatim is closing.');
    const access = await this.options.access();
    const key = accessKey(access);
    if (this.connection?.key !== key) {
      void this.connection?.newsroom.close();
      this.connection = {
        key,
        newsroom: new NewsroomConnection(
          access.address,
          access.password,
          this.options.bounds,
          settingsNaming,
        ),
      };
    }
    return work(this.connection.newsroom);
  }

  /** A page shows a newsroom search: the archive is listened to until every such page stops. */
  async startWatching(watcher: string): Promise<void> {
    this.watchers.add(watcher);
    await this.ensureWatch();
  }

  async stopWatching(watcher: string): Promise<void> {
    this.watchers.delete(watcher);
    if (this.watchers.size === 0) await this.stopWatch();
  }

  /** Every page went (the window closed). */
  async stopAllWatching(): Promise<void> {
    this.watchers.clear();
    await this.stopWatch();
  }

  get watching(): boolean {
    return this.watch !== undefined;
  }

  /** Settings changed: what was opened for another newsroom or password is closed (and a watch moved). */
  async refresh(): Promise<void> {
    let key: string | undefined;
    try {
      key = accessKey(await this.options.access());
    } catch {
      // No newsroom is set any more: nothing is kept open for the old one.
      key = undefined;
    }
    if (this.connection && this.connection.key !== key) {
      const stale = this.connection.newsroom;
      this.connection = undefined;
      await stale.close();
    }
    if (this.watch && this.watch.key !== key) {
      await this.stopWatch();
      if (this.watchers.size > 0 && key !== undefined)
        await this.ensureWatch().catch(this.options.onWatchLost);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watchers.clear();
    const connection = this.connection;
    this.connection = undefined;
    await Promise.all([connection?.newsroom.close(), this.stopWatch()]);
  }

  private async ensureWatch(): Promise<void> {
    if (this.closed || this.watch) return;
    const access = await this.options.access();
    const watch = watchNewsroom(access, () => this.changed.emit(), {
      bounds: this.options.bounds,
      onLost: this.options.onWatchLost,
      ...(this.options.watchRetryMs !== undefined ? { firstRetryMs: this.options.watchRetryMs } : {}),
    });
    this.watch = { key: accessKey(access), watch };
    try {
      await watch.ready;
    } catch (error) {
      if (this.watch?.watch === watch) this.watch = undefined;
      throw error;
    }
    // Every page stopped (or the app closed) while it was connecting.
    if (this.watchers.size === 0 || this.closed) await this.stopWatch();
  }

  private async stopWatch(): Promise<void> {
    const watch = this.watch?.watch;
    this.watch = undefined;
    await watch?.dispose();
  }
}
