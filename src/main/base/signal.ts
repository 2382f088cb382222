import { toDisposable, type IDisposable } from './lifecycle';

/**
 * A minimal typed publish/subscribe, for services that announce changes to any listener. Like
 * VS Code's `Event`, subscribing hands back an `IDisposable`, so a subscription goes straight
 * into the `DisposableStore` of whoever owns its lifetime.
 */
export class Signal<T> {
  private readonly listeners = new Set<(value: T) => void>();

  emit(value: T): void {
    for (const listener of this.listeners) listener(value);
  }

  subscribe(listener: (value: T) => void): IDisposable {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  }
}
