import { describe, expect, it } from 'vitest';
import { RequestBudget } from './request-budget';
import { FakeClock } from '../../base/fake-clock.test-kit';

describe('the request budget', () => {
  it('lets a burst through at once, then holds everyone to the steady rate', async () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(clock, 2, 3);
    const granted: number[] = [];
    for (let i = 0; i < 7; i++) void budget.take().then(() => granted.push(clock.now()));
    await clock.advance(0);
    expect(granted).toEqual([0, 0, 0]);
    await clock.advance(2000);
    expect(granted).toEqual([0, 0, 0, 500, 1000, 1500, 2000]);
  });

  it('pauses every caller when the service asks to slow down', async () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(clock, 100, 100);
    budget.pause(5000);
    let granted = -1;
    void budget.take().then(() => (granted = clock.now()));
    await clock.advance(4999);
    expect(granted).toBe(-1);
    await clock.advance(1);
    expect(granted).toBe(5000);
  });

  it('lets a waiting caller give up', async () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(clock, 1, 1);
    await budget.take();
    const controller = new AbortController();
    const waiting = budget.take(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    let next = false;
    void budget.take().then(() => (next = true));
    await clock.advance(1000);
    expect(next).toBe(true);
  });
});
