/**
 * Lifetimes, after VS Code's `src/vs/base/common/lifecycle.ts`: whatever opens something (a
 * subscription, a timer, an IPC registration) hands back an `IDisposable`, and whoever owns the
 * lifetime (the composition root, a window, a session) puts it in a `DisposableStore` and
 * disposes the store once when that lifetime ends.
 *
 * Disposing is idempotent, and one failing disposable never stops the others: every one is
 * disposed, then the errors are rethrown (the one error, or an AggregateError of them all).
 */
export interface IDisposable {
  dispose(): void;
}

export function isDisposable(value: unknown): value is IDisposable {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { dispose?: unknown }).dispose === 'function' &&
    (value as { dispose(): unknown }).dispose.length === 0
  );
}

/** A disposable that runs `fn` the first time it is disposed, and never again. */
export function toDisposable(fn: () => void): IDisposable {
  let disposed = false;
  return {
    dispose: () => {
      if (disposed) return;
      disposed = true;
      fn();
    },
  };
}

/** Nothing to dispose: for an optional capability that is absent. */
export const noopDisposable: IDisposable = Object.freeze({ dispose: () => undefined });

/**
 * Disposes every one, in order, even when some throw; then throws the single error, or an
 * AggregateError carrying them all.
 */
export function disposeAll(disposables: Iterable<IDisposable | undefined>): void {
  const errors: unknown[] = [];
  for (const disposable of disposables) {
    try {
      disposable?.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  throwCollected(errors);
}

/** One disposable for several; disposes them all once. */
export function combinedDisposable(...disposables: IDisposable[]): IDisposable {
  return toDisposable(() => disposeAll(disposables));
}

/** A `setTimeout` that is cleared when disposed. The handle is `unref`ed only when asked. */
export function disposableTimeout(
  fn: () => void,
  ms: number,
  options: { unref?: boolean } = {},
): IDisposable {
  const handle = setTimeout(fn, Math.max(0, ms));
  if (options.unref) handle.unref();
  return toDisposable(() => clearTimeout(handle));
}

/** A `setInterval` that is cleared when disposed. */
export function disposableInterval(
  fn: () => void,
  ms: number,
  options: { unref?: boolean } = {},
): IDisposable {
  const handle = setInterval(fn, ms);
  if (options.unref) handle.unref();
  return toDisposable(() => clearInterval(handle));
}

/**
 * Owns a set of disposables and disposes them all, once, in the order they were added. A
 * disposable added after the store was disposed is disposed at once (it would leak otherwise).
 */
export class DisposableStore implements IDisposable {
  private readonly items = new Set<IDisposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** How many disposables the store holds right now. */
  get size(): number {
    return this.items.size;
  }

  add<T extends IDisposable>(disposable: T): T {
    if ((disposable as unknown) === this) throw new Error('A store cannot hold itself.');
    if (this.disposed) {
      disposable.dispose();
      return disposable;
    }
    this.items.add(disposable);
    return disposable;
  }

  /** Disposes one early and forgets it. */
  delete(disposable: IDisposable): void {
    if (!this.items.delete(disposable)) return;
    disposable.dispose();
  }

  /** Forgets one without disposing it: its lifetime now belongs to someone else. */
  deleteAndLeak(disposable: IDisposable): void {
    this.items.delete(disposable);
  }

  /** Disposes everything held so far; the store stays open for more. */
  clear(): void {
    const held = [...this.items];
    this.items.clear();
    disposeAll(held);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

/** A base class for something with a lifetime: what it `register`s is disposed with it. */
export abstract class Disposable implements IDisposable {
  protected readonly store = new DisposableStore();

  protected register<T extends IDisposable>(disposable: T): T {
    return this.store.add(disposable);
  }

  dispose(): void {
    this.store.dispose();
  }
}

function throwCollected(errors: unknown[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed to dispose`);
}
