import { describe, expect, it } from 'vitest';
import { DisposableStore } from './lifecycle';
import { Signal } from './signal';

describe('a Signal', () => {
  it('hands back a disposable that stops its listener, so a store owns the subscription', () => {
    const signal = new Signal<number>();
    const heard: number[] = [];
    const store = new DisposableStore();
    store.add(signal.subscribe((value) => heard.push(value)));
    const other = signal.subscribe((value) => heard.push(value * 10));
    signal.emit(1);
    store.dispose();
    signal.emit(2);
    other.dispose();
    other.dispose();
    signal.emit(3);
    expect(heard).toEqual([1, 10, 20]);
  });
});
