import { describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import { FakeClock } from '../../base/fake-clock.test-kit';
import { SyncLoop } from './sync-loop';

const backoff = { firstMs: 1_000, maxMs: 16_000 };

/** A loop whose runs are counted and can be held open until released. */
function countedLoop(clock: FakeClock, outcome: () => Promise<void> = () => Promise.resolve()) {
  let runs = 0;
  let concurrent = 0;
  let mostConcurrent = 0;
  const loop = new SyncLoop({
    name: 'the test glossary',
    clock,
    backoff,
    random: () => 1,
    sync: async () => {
      runs++;
      concurrent++;
      mostConcurrent = Math.max(mostConcurrent, concurrent);
      try {
        await outcome();
      } finally {
        concurrent--;
      }
    },
  });
  return { loop, runs: () => runs, mostConcurrent: () => mostConcurrent };
}

describe('SyncLoop', () => {
  it('folds the asks that come during a run into exactly one more run, never two at once', async () => {
    const clock = new FakeClock();
    let release: (() => void) | undefined;
    const counted = countedLoop(clock, () => new Promise<void>((resolve) => (release = resolve)));
    const first = counted.loop.wake();
    void counted.loop.wake();
    void counted.loop.wake();
    const last = counted.loop.wake();
    expect(counted.runs()).toBe(1);
    release?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(counted.runs()).toBe(2);
    release?.();
    await Promise.all([first, last]);
    expect(counted.runs()).toBe(2);
    expect(counted.mostConcurrent()).toBe(1);
  });

  it('tries an unreachable newsroom again with growing pauses, and from the start once it answers', async () => {
    const clock = new FakeClock();
    let reachable = false;
    const counted = countedLoop(clock, () =>
      reachable ? Promise.resolve() : Promise.reject(new VerbatimError('network', 'The newsroom is away.')),
    );
    await counted.loop.wake();
    expect(counted.loop.unreachableRuns).toBe(1);
    await clock.advance(999);
    expect(counted.runs()).toBe(1);
    await clock.advance(1);
    expect(counted.runs()).toBe(2);
    // The second pause is twice the first.
    await clock.advance(1_999);
    expect(counted.runs()).toBe(2);
    reachable = true;
    await clock.advance(1);
    expect(counted.runs()).toBe(3);
    expect(counted.loop.unreachableRuns).toBe(0);
    await clock.advance(60_000);
    expect(counted.runs()).toBe(3);
  });

  it('tries again at the longest pause after a fault that is not the network, and stops when disposed', async () => {
    const clock = new FakeClock();
    const counted = countedLoop(clock, () => Promise.reject(new Error('a bug of ours')));
    await counted.loop.wake();
    await clock.advance(backoff.maxMs);
    expect(counted.runs()).toBe(2);
    counted.loop.dispose();
    await clock.advance(backoff.maxMs * 4);
    await counted.loop.wake();
    expect(counted.runs()).toBe(2);
  });

  it('a wake while a retry waits runs at once instead of at the retry', async () => {
    const clock = new FakeClock();
    let reachable = false;
    const counted = countedLoop(clock, () =>
      reachable ? Promise.resolve() : Promise.reject(new VerbatimError('timeout', 'No answer.')),
    );
    await counted.loop.wake();
    reachable = true;
    await counted.loop.wake();
    expect(counted.runs()).toBe(2);
    await clock.advance(backoff.maxMs);
    expect(counted.runs()).toBe(2);
  });
});
