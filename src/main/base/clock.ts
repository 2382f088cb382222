/** Time as core services see it: injectable, so tests can run hours of polling in seconds. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects early when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted'));
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** A clock running `speed` times faster than real time (for tests and benchmarks). */
export function acceleratedClock(speed: number, base: Clock = systemClock): Clock {
  const start = base.now();
  return {
    now: () => start + (base.now() - start) * speed,
    sleep: (ms, signal) => base.sleep(ms / speed, signal),
  };
}
