import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Disposable,
  DisposableStore,
  combinedDisposable,
  disposableInterval,
  disposableTimeout,
  disposeAll,
  isDisposable,
  toDisposable,
} from './lifecycle';

afterEach(() => {
  vi.useRealTimers();
});

describe('toDisposable', () => {
  it('runs its function the first time only', () => {
    const fn = vi.fn();
    const disposable = toDisposable(fn);
    disposable.dispose();
    disposable.dispose();
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('is recognised as a disposable, and a plain object is not', () => {
    expect(isDisposable(toDisposable(() => undefined))).toBe(true);
    expect(isDisposable({ dispose: 1 })).toBe(false);
    expect(isDisposable(null)).toBe(false);
  });
});

describe('a DisposableStore', () => {
  it('disposes everything it holds once, in the order added, however often it is disposed', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('a')));
    store.add(toDisposable(() => order.push('b')));
    const counted = { dispose: vi.fn() };
    store.add(counted);
    expect(store.size).toBe(3);
    store.dispose();
    store.dispose();
    expect(order).toEqual(['a', 'b']);
    expect(counted.dispose).toHaveBeenCalledTimes(1);
    expect(store.isDisposed).toBe(true);
    expect(store.size).toBe(0);
  });

  it('disposes the rest when one throws, then throws that error', () => {
    const store = new DisposableStore();
    const before = vi.fn();
    const after = vi.fn();
    store.add(toDisposable(before));
    store.add(
      toDisposable(() => {
        throw new Error('socket already gone');
      }),
    );
    store.add(toDisposable(after));
    expect(() => store.dispose()).toThrow('socket already gone');
    expect(before).toHaveBeenCalledTimes(1);
    expect(after).toHaveBeenCalledTimes(1);
    // Disposed for good: a second dispose neither throws nor runs anything again.
    expect(() => store.dispose()).not.toThrow();
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('collects several failures into one AggregateError', () => {
    const store = new DisposableStore();
    const last = vi.fn();
    for (const message of ['first', 'second']) {
      store.add(
        toDisposable(() => {
          throw new Error(message);
        }),
      );
    }
    store.add(toDisposable(last));
    let caught: unknown;
    try {
      store.dispose();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AggregateError);
    expect((caught as AggregateError).errors.map((error: Error) => error.message)).toEqual([
      'first',
      'second',
    ]);
    expect(last).toHaveBeenCalledTimes(1);
  });

  it('disposes at once what is added after it was disposed', () => {
    const store = new DisposableStore();
    store.dispose();
    const late = vi.fn();
    store.add(toDisposable(late));
    expect(late).toHaveBeenCalledTimes(1);
    expect(store.size).toBe(0);
  });

  it('can dispose one early, or give one away without disposing it', () => {
    const store = new DisposableStore();
    const early = vi.fn();
    const given = vi.fn();
    const earlyOne = store.add(toDisposable(early));
    const givenOne = store.add(toDisposable(given));
    store.delete(earlyOne);
    expect(early).toHaveBeenCalledTimes(1);
    store.deleteAndLeak(givenOne);
    store.dispose();
    expect(early).toHaveBeenCalledTimes(1);
    expect(given).not.toHaveBeenCalled();
  });

  it('clears what it holds and stays usable', () => {
    const store = new DisposableStore();
    const first = vi.fn();
    store.add(toDisposable(first));
    store.clear();
    expect(first).toHaveBeenCalledTimes(1);
    expect(store.isDisposed).toBe(false);
    const second = vi.fn();
    store.add(toDisposable(second));
    store.dispose();
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('refuses to hold itself', () => {
    const store = new DisposableStore();
    expect(() => store.add(store)).toThrow();
  });
});

describe('disposeAll and combinedDisposable', () => {
  it('dispose every one even when an earlier one throws', () => {
    const last = vi.fn();
    const failing = toDisposable(() => {
      throw new Error('boom');
    });
    expect(() => disposeAll([failing, undefined, toDisposable(last)])).toThrow('boom');
    expect(last).toHaveBeenCalledTimes(1);
    const a = vi.fn();
    const b = vi.fn();
    const both = combinedDisposable(toDisposable(a), toDisposable(b));
    both.dispose();
    both.dispose();
    expect([a.mock.calls.length, b.mock.calls.length]).toEqual([1, 1]);
  });
});

describe('disposable timers', () => {
  it('a timeout disposed before it fires never fires, and leaves no timer behind', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    const timer = disposableTimeout(fired, 1000);
    expect(vi.getTimerCount()).toBe(1);
    timer.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(fired).not.toHaveBeenCalled();
  });

  it('an interval stops when disposed', () => {
    vi.useFakeTimers();
    const ticked = vi.fn();
    const interval = disposableInterval(ticked, 100, { unref: true });
    vi.advanceTimersByTime(350);
    expect(ticked).toHaveBeenCalledTimes(3);
    interval.dispose();
    vi.advanceTimersByTime(1000);
    expect(ticked).toHaveBeenCalledTimes(3);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the Disposable base class', () => {
  it('disposes what its subclass registered', () => {
    const released = vi.fn();
    class Session extends Disposable {
      constructor() {
        super();
        this.register(toDisposable(released));
      }
    }
    const session = new Session();
    session.dispose();
    session.dispose();
    expect(released).toHaveBeenCalledTimes(1);
  });
});
