import type { Clock } from '../../base/clock';

/**
 * One budget of requests per second shared by every job, so a hundred queued transcripts do
 * not flood the service. A token bucket: short bursts allowed, a steady rate enforced. When
 * the service says "slow down" (429 with Retry-After) everyone pauses, not just the caller.
 */
export class RequestBudget {
  private tokens: number;
  private updatedAt: number;
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    private readonly ratePerSecond = 5,
    private readonly burst = 10,
  ) {
    this.tokens = burst;
    this.updatedAt = clock.now();
  }

  /** Waits for a turn. Turns are handed out in order of asking. */
  take(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.waitForToken(signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  private async waitForToken(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new Error('aborted');
      const now = this.clock.now();
      if (now < this.pausedUntil) {
        await this.clock.sleep(this.pausedUntil - now, signal);
        continue;
      }
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.ratePerSecond);
      this.updatedAt = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.clock.sleep(((1 - this.tokens) / this.ratePerSecond) * 1000, signal);
    }
  }
}
