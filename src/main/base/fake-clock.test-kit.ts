import { clockOf, type Clock } from './clock';
import { toDisposable, type IDisposable } from './lifecycle';

interface Waiting {
  at: number;
  /** Creation order: timers due at the same moment fire in the order they were set. */
  order: number;
  fn: () => void;
  /** Set for an interval: it is due again this long after it fired. */
  every?: number;
}

/**
 * The one fake of `Clock`: time moves only when the test says, and the timers that fall due
 * run in order of their due time (then of creation), each at its own moment. Between two timers
 * the promise callbacks waiting run, so a sleep's continuation that sleeps again is counted.
 */
export class FakeClock implements Clock {
  private time: number;
  private nextOrder = 0;
  private readonly waiting = new Set<Waiting>();
  private readonly sleeping = clockOf(this);

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  /** How many timers (and sleeps) are waiting: a lifetime that was disposed leaves none. */
  get pending(): number {
    return this.waiting.size;
  }

  setTimeout(fn: () => void, ms: number): IDisposable {
    return this.add({ at: this.time + Math.max(0, ms), order: this.nextOrder++, fn });
  }

  setInterval(fn: () => void, ms: number): IDisposable {
    const every = Math.max(1, ms);
    return this.add({ at: this.time + every, order: this.nextOrder++, fn, every });
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.sleeping.sleep(ms, signal);
  }

  /** Moves time forward by `ms`, running every timer due on the way at its moment. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await settlePromises();
      const next = this.nextDue();
      if (!next || next.at > target) break;
      this.time = next.at;
      if (next.every === undefined) this.waiting.delete(next);
      else {
        next.at += next.every;
        next.order = this.nextOrder++;
      }
      next.fn();
    }
    this.time = target;
    await settlePromises();
  }

  private add(timer: Waiting): IDisposable {
    this.waiting.add(timer);
    return toDisposable(() => this.waiting.delete(timer));
  }

  private nextDue(): Waiting | undefined {
    let next: Waiting | undefined;
    for (const timer of this.waiting)
      if (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order)) next = timer;
    return next;
  }
}

/** Lets the promise callbacks already queued (and those they queue, a few deep) run. */
async function settlePromises(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
