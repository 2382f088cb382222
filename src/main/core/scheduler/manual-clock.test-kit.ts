import type { Clock } from '../../base/clock';

/** A clock that moves only when told, for deterministic tests of timing logic. */
export class ManualClock implements Clock {
  private time = 0;
  private readonly sleepers: { until: number; resolve: () => void }[] = [];

  now(): number {
    return this.time;
  }

  /** How many sleeps are waiting: a scheduler that was disposed leaves none. */
  get pending(): number {
    return this.sleepers.length;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted'));
      const sleeper = { until: this.time + Math.max(0, ms), resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener('abort', () => {
        // A sleeper already woken is no longer in the list (and must not take another with it).
        const index = this.sleepers.indexOf(sleeper);
        if (index >= 0) this.sleepers.splice(index, 1);
        reject(new Error('aborted'));
      });
    });
  }

  /** Moves time forward, waking sleepers in order and letting their continuations run. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await flush();
      this.sleepers.sort((a, b) => a.until - b.until);
      const next = this.sleepers[0];
      if (!next || next.until > target) break;
      this.sleepers.shift();
      this.time = next.until;
      next.resolve();
    }
    this.time = target;
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
