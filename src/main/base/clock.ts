import { disposableInterval, disposableTimeout, type IDisposable } from './lifecycle';

/**
 * Time as core services see it, in one vocabulary (issue #34): what time it is, a timeout, an
 * interval and a sleep. Every timer hands back an `IDisposable`, so its owner's DisposableStore
 * cancels it. Injectable, so tests run hours of polling, a recording's ticks or a voice session's
 * reconnects in no time with the fake clock (base/fake-clock.test-kit.ts).
 */
export interface Clock {
  now(): number;
  /** Calls `fn` once after `ms`; disposing first cancels it. */
  setTimeout(fn: () => void, ms: number): IDisposable;
  /** Calls `fn` every `ms` until disposed. */
  setInterval(fn: () => void, ms: number): IDisposable;
  /** Resolves after `ms`; rejects early when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** What a clock has to provide; `clockOf` builds the sleep on its timeout, so every clock sleeps alike. */
export type ClockTimers = Omit<Clock, 'sleep'>;

export function clockOf(timers: ClockTimers): Clock {
  return {
    now: () => timers.now(),
    setTimeout: (fn, ms) => timers.setTimeout(fn, ms),
    setInterval: (fn, ms) => timers.setInterval(fn, ms),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new Error('aborted'));
        const onAbort = (): void => {
          timer.dispose();
          reject(new Error('aborted'));
        };
        const timer = timers.setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

export const systemClock: Clock = clockOf({
  now: () => Date.now(),
  setTimeout: (fn, ms) => disposableTimeout(fn, ms),
  setInterval: (fn, ms) => disposableInterval(fn, ms),
});

/** A clock running `speed` times faster than real time (for tests and benchmarks). */
export function acceleratedClock(speed: number, base: Clock = systemClock): Clock {
  const start = base.now();
  return clockOf({
    now: () => start + (base.now() - start) * speed,
    setTimeout: (fn, ms) => base.setTimeout(fn, ms / speed),
    setInterval: (fn, ms) => base.setInterval(fn, ms / speed),
  });
}

/** Wall-clock time with another clock's pacing: a date shown to the journalist stays true in a fast demo. */
export function wallTimeWithPacingOf(pacing: Clock): Clock {
  return clockOf({
    now: () => systemClock.now(),
    setTimeout: (fn, ms) => pacing.setTimeout(fn, ms),
    setInterval: (fn, ms) => pacing.setInterval(fn, ms),
  });
}
