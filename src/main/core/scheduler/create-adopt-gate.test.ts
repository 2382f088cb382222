import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CreateAdoptGate } from './create-adopt-gate';

/** Resolves after `turns` trips through the task queue, so operations interleave. */
const after = (turns: number): Promise<void> =>
  turns === 0
    ? Promise.resolve()
    : new Promise((resolve) => setTimeout(() => void after(turns - 1).then(resolve), 0));

describe("the gate between creating a recording's transcript and searching for a lost one", () => {
  it('lets a search start only once the creations on their way have ended, and holds new ones back meanwhile', async () => {
    const gate = new CreateAdoptGate();
    const events: string[] = [];
    let finishFirst = (): void => {};
    const first = gate.creating('us a', async () => {
      events.push('create 1 starts');
      await new Promise<void>((resolve) => {
        finishFirst = resolve;
      });
      events.push('create 1 ends');
    });
    await after(1);
    const search = gate.searching('us a', async () => {
      events.push('search');
      await after(2);
      events.push('search ends');
      return true;
    });
    await after(1);
    const second = gate.creating('us a', async () => {
      events.push('create 2');
    });
    const otherRecording = gate.creating('us b', async () => {
      events.push('create of another recording');
    });
    await otherRecording;
    await after(2);
    expect(events).toEqual(['create 1 starts', 'create of another recording']);
    finishFirst();
    await Promise.all([first, search, second]);
    expect(events).toEqual([
      'create 1 starts',
      'create of another recording',
      'create 1 ends',
      'search',
      'search ends',
      'create 2',
    ]);
    expect(gate.busyKeys).toBe(0);
  });

  it('never runs a search beside a creation or another search of the same recording, whatever the order and failures', async () => {
    const operation = fc.record({
      kind: fc.constantFrom('create', 'search'),
      key: fc.constantFrom('us a', 'us b'),
      startAfter: fc.nat(4),
      lasts: fc.nat(4),
      fails: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        const gate = new CreateAdoptGate();
        const running = new Map<string, { creations: number; searches: number }>();
        const overlaps: string[] = [];
        const ran: number[] = [];
        await Promise.all(
          operations.map(async (op, index) => {
            await after(op.startAfter);
            const body = async (): Promise<void> => {
              const now = running.get(op.key) ?? { creations: 0, searches: 0 };
              running.set(op.key, now);
              if (op.kind === 'create') now.creations += 1;
              else now.searches += 1;
              if (now.searches > 1 || (now.searches === 1 && now.creations > 0))
                overlaps.push(`${op.kind} ${index} of ${op.key}`);
              await after(op.lasts);
              if (op.kind === 'create') now.creations -= 1;
              else now.searches -= 1;
              ran.push(index);
              if (op.fails) throw new Error('the service failed');
            };
            const run = op.kind === 'create' ? gate.creating(op.key, body) : gate.searching(op.key, body);
            await run.catch(() => undefined);
          }),
        );
        expect(overlaps).toEqual([]);
        expect(ran.sort((x, y) => x - y)).toEqual(operations.map((_, index) => index));
        expect(gate.busyKeys).toBe(0);
      }),
      { numRuns: 150 },
    );
  });
});
