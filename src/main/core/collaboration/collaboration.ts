import type { Clock } from '../../base/clock';
import type { IDisposable } from '../../base/lifecycle';
import { silentLogger, type Logger } from '../log/logger';
import type { NewsroomAccess } from '../newsroom/newsroom-address';
import type { NewsroomBounds } from '../newsroom/newsroom-connection';
import { accessKey } from '../newsroom/newsroom-reader';
import { collaborationChannel, watchNewsroom, type NewsroomWatch } from '../newsroom/newsroom-watch';
import type { SenderBackoff } from '../publishing/newsroom-sender';
import { SyncLoop } from './sync-loop';

/** The kinds of shared work, as the newsroom's notifications name them. */
export type CollaborationKind = 'glossary' | 'story';

export interface CollaborationOptions {
  /** The newsroom of Settings now, or undefined while none is set (nothing is sent or read then). */
  access: () => Promise<NewsroomAccess | undefined>;
  /** Each kind's run: send what waits here, then read what changed there. */
  kinds: Partial<Record<CollaborationKind, () => Promise<void>>>;
  clock: Clock;
  logger?: Logger;
  bounds?: NewsroomBounds;
  backoff?: SenderBackoff;
  /** How long to wait before listening again after the first connection failed (30 s). */
  listenRetryMs?: number;
  /** How long a lost listening connection waits before connecting again (tests shorten it). */
  watchRetryMs?: number;
}

/**
 * Working together (issue #36), kept live: one SyncLoop per kind of shared work, woken by a
 * change made here (`changed`), by the newsroom's notification naming the kind, by a reconnect
 * (which names none: every kind runs, as anything may have been missed), and at start. One
 * LISTEN connection serves every kind. It starts listening when a run has reached the newsroom,
 * so an app that starts offline listens once it is back; Settings naming another newsroom moves
 * it (`refresh`). Owned by the composition root; `dispose` stops the loops and closes the watch.
 */
export class Collaboration implements IDisposable {
  private readonly loops = new Map<CollaborationKind, SyncLoop>();
  private watch: { key: string; watch: NewsroomWatch } | undefined;
  private watchStarting: Promise<void> | undefined;
  private listenRetry: IDisposable | undefined;
  private disposed = false;
  private readonly log: Logger;

  constructor(private readonly options: CollaborationOptions) {
    this.log = options.logger ?? silentLogger;
    for (const [kind, sync] of Object.entries(options.kinds) as [CollaborationKind, () => Promise<void>][])
      this.loops.set(
        kind,
        new SyncLoop({
          name: kind === 'glossary' ? 'the newsroom glossaries' : 'the shared stories',
          clock: options.clock,
          backoff: options.backoff,
          logger: this.log,
          sync: async () => {
            if (!(await this.options.access())) return;
            await sync();
            // The newsroom answered: make sure its notifications are heard.
            void this.listen();
          },
        }),
      );
  }

  /** Runs every kind once (the app started, Settings changed). */
  start(): Promise<void> {
    return this.wakeAll();
  }

  /** Something of this kind was made here: sent (and what changed read) soon. */
  changed(kind: CollaborationKind): Promise<void> {
    return this.loops.get(kind)?.wake() ?? Promise.resolve();
  }

  /** Whether the newsroom's notifications are heard now. */
  get listening(): boolean {
    return this.watch !== undefined;
  }

  /** Settings changed: the watch of another newsroom or password is closed, and every kind runs. */
  async refresh(): Promise<void> {
    const access = await this.options.access().catch(() => undefined);
    if (this.watch && this.watch.key !== (access ? accessKey(access) : undefined)) await this.stopWatch();
    await this.wakeAll();
  }

  dispose(): void {
    this.disposed = true;
    this.listenRetry?.dispose();
    for (const loop of this.loops.values()) loop.dispose();
    void this.stopWatch();
  }

  private async wakeAll(): Promise<void> {
    await Promise.all([...this.loops.values()].map((loop) => loop.wake()));
  }

  private listen(): Promise<void> {
    if (this.disposed || this.watch) return Promise.resolve();
    this.watchStarting ??= this.startWatch().finally(() => (this.watchStarting = undefined));
    return this.watchStarting;
  }

  private async startWatch(): Promise<void> {
    const access = await this.options.access();
    if (!access || this.disposed) return;
    const watch = watchNewsroom(
      access,
      (payload) => {
        const loop = payload ? this.loops.get(payload as CollaborationKind) : undefined;
        // A reconnect names nothing: any kind may have changed meanwhile.
        if (payload === undefined) void this.wakeAll();
        else void loop?.wake();
      },
      {
        channel: collaborationChannel,
        bounds: this.options.bounds,
        onLost: (error) => this.log.warn('working together lost its notifications, reconnecting', error),
        ...(this.options.watchRetryMs !== undefined ? { firstRetryMs: this.options.watchRetryMs } : {}),
      },
    );
    try {
      await watch.ready;
    } catch (error) {
      this.log.warn('working together could not listen to the newsroom; tried again later', error);
      this.listenRetry?.dispose();
      this.listenRetry = this.options.clock.setTimeout(
        () => void this.listen(),
        this.options.listenRetryMs ?? 30_000,
      );
      return;
    }
    if (this.disposed) {
      await watch.dispose();
      return;
    }
    this.watch = { key: accessKey(access), watch };
    // What changed between the run that proved the newsroom there and the LISTEN is read now.
    await this.wakeAll();
  }

  private async stopWatch(): Promise<void> {
    const watch = this.watch?.watch;
    this.watch = undefined;
    await watch?.dispose();
  }
}
