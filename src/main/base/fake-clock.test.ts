import { describe, expect, it } from 'vitest';
import { acceleratedClock } from './clock';
import { FakeClock } from './fake-clock.test-kit';

describe('FakeClock', () => {
  it('runs due timers in order of due time, then of creation, each at its own moment', async () => {
    const clock = new FakeClock(1000);
    const fired: string[] = [];
    const at = (name: string) => () => fired.push(`${name}@${clock.now()}`);
    clock.setTimeout(at('late'), 300);
    clock.setTimeout(at('first'), 100);
    clock.setTimeout(at('tie-a'), 200);
    clock.setTimeout(at('tie-b'), 200);
    clock.setTimeout(at('beyond'), 1000);
    await clock.advance(500);
    expect(fired).toEqual(['first@1100', 'tie-a@1200', 'tie-b@1200', 'late@1300']);
    expect(clock.now()).toBe(1500);
    expect(clock.pending).toBe(1);
  });

  it('a timer disposed before it is due never runs, and stops counting as pending', async () => {
    const clock = new FakeClock();
    const fired: string[] = [];
    const cancelled = clock.setTimeout(() => fired.push('cancelled'), 100);
    clock.setTimeout(() => fired.push('kept'), 100);
    cancelled.dispose();
    expect(clock.pending).toBe(1);
    await clock.advance(100);
    expect(fired).toEqual(['kept']);
    expect(clock.pending).toBe(0);
  });

  it('an interval runs every period until disposed, interleaved with timeouts by time', async () => {
    const clock = new FakeClock();
    const fired: string[] = [];
    const ticking = clock.setInterval(() => fired.push(`tick@${clock.now()}`), 100);
    clock.setTimeout(() => fired.push(`timeout@${clock.now()}`), 250);
    await clock.advance(350);
    expect(fired).toEqual(['tick@100', 'tick@200', 'timeout@250', 'tick@300']);
    ticking.dispose();
    await clock.advance(1000);
    expect(fired).toHaveLength(4);
    expect(clock.pending).toBe(0);
  });

  it('a timer set by a timer, or after a sleep, runs within the same advance when it falls due', async () => {
    const clock = new FakeClock();
    const fired: number[] = [];
    clock.setTimeout(() => clock.setTimeout(() => fired.push(clock.now()), 50), 50);
    void (async () => {
      await clock.sleep(30);
      await clock.sleep(30);
      fired.push(clock.now());
    })();
    await clock.advance(200);
    expect(fired).toEqual([60, 100]);
  });

  it('a sleep ends early with an error when its signal aborts, and leaves no timer behind', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const slept = clock.sleep(1000, controller.signal);
    expect(clock.pending).toBe(1);
    controller.abort();
    await expect(slept).rejects.toThrow('aborted');
    expect(clock.pending).toBe(0);
  });

  it('an accelerated clock runs its timers and intervals faster by its speed', async () => {
    const base = new FakeClock();
    const fast = acceleratedClock(10, base);
    const fired: string[] = [];
    fast.setTimeout(() => fired.push(`timeout@${fast.now()}`), 1000);
    const ticking = fast.setInterval(() => fired.push(`tick@${fast.now()}`), 600);
    await base.advance(130);
    ticking.dispose();
    expect(fired).toEqual(['tick@600', 'timeout@1000', 'tick@1200']);
  });
});
