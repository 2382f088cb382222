import { VerbatimError } from '../../../shared/errors';
import type { Clock } from '../../base/clock';
import type { IDisposable } from '../../base/lifecycle';
import { silentLogger, type Logger } from '../log/logger';
import { backoffDelay, defaultSenderBackoff, type SenderBackoff } from '../publishing/newsroom-sender';

/**
 * Keeps one kind of shared work (the newsroom glossary, shared stories: issue #36) in step with
 * the newsroom: each run sends what was made here and waits (made offline, or while another run
 * went), then reads what changed there. Runs are asked for by a change here, a notification from
 * the newsroom, a reconnect and the start of the app; asks that come while a run goes are folded
 * into one more run after it, so nothing asked for is missed and no two runs overlap.
 *
 * What the run sends must be idempotent (ids made here, compare-and-set by revision): a process
 * killed between the newsroom taking a change and the library recording it sends it again, and
 * two processes of one reporter may send the same change at once. A newsroom that cannot be
 * reached is tried again with the publishing sender's backoff (exponential, capped, jittered); a
 * fault of ours is logged as one and tried again at the longest pause.
 */
export interface SyncLoopOptions {
  /** What is kept in step, for the log ("the newsroom glossary"). */
  name: string;
  /** One run: send, then read. Throws a VerbatimError 'network' or 'timeout' when unreachable. */
  sync: () => Promise<void>;
  clock: Clock;
  backoff?: SenderBackoff;
  random?: () => number;
  logger?: Logger;
}

function unreachable(error: unknown): error is VerbatimError {
  return error instanceof VerbatimError && (error.code === 'network' || error.code === 'timeout');
}

export class SyncLoop implements IDisposable {
  private running: Promise<void> | undefined;
  private again = false;
  private failures = 0;
  private retry: IDisposable | undefined;
  private disposed = false;
  private readonly backoff: SenderBackoff;
  private readonly random: () => number;
  private readonly log: Logger;

  constructor(private readonly options: SyncLoopOptions) {
    this.backoff = options.backoff ?? defaultSenderBackoff;
    this.random = options.random ?? Math.random;
    this.log = options.logger ?? silentLogger;
  }

  /** Asks for a run soon; resolves when the runs asked for so far have ended (well or not). */
  wake(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.retry?.dispose();
    this.retry = undefined;
    const run = async (): Promise<void> => {
      do {
        this.again = false;
        await this.runOnce();
      } while (this.again && !this.disposed);
    };
    this.running = run().finally(() => (this.running = undefined));
    return this.running;
  }

  /** How many runs in a row could not reach the newsroom (0 when the last one did). */
  get unreachableRuns(): number {
    return this.failures;
  }

  dispose(): void {
    this.disposed = true;
    this.retry?.dispose();
    this.retry = undefined;
  }

  private async runOnce(): Promise<void> {
    try {
      await this.options.sync();
      this.failures = 0;
    } catch (error) {
      if (unreachable(error)) {
        const delay = backoffDelay(this.failures, this.backoff, this.random);
        this.failures++;
        this.log.warn(`${this.options.name} could not reach the newsroom; tried again later.`, {
          code: error.code,
          delay,
        });
        this.retryAfter(delay);
      } else {
        this.log.error(`keeping ${this.options.name} in step failed; tried again later.`, {
          error: error instanceof Error ? error.message : String(error),
        });
        this.retryAfter(this.backoff.maxMs);
      }
    }
  }

  private retryAfter(ms: number): void {
    if (this.disposed) return;
    this.retry?.dispose();
    this.retry = this.options.clock.setTimeout(() => {
      this.retry = undefined;
      void this.wake();
    }, ms);
  }
}
