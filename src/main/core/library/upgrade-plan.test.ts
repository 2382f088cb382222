import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { migrations } from './migrations/index';
import {
  backupLabel,
  describeDuration,
  describeTimeLeft,
  planUpgrade,
  progressAt,
  progressLine,
  upgradeDoneLine,
} from './upgrade-plan';

const versions = migrations.map((migration) => migration.version);
const latest = versions.at(-1)!;

describe('planning a library upgrade', () => {
  it('backs up first, then runs each newer migration in order, in the journalist’s words', () => {
    const plan = planUpgrade(10, versions, { sentences: 600_000 });
    expect(plan.map((step) => step.id)).toEqual(['backup', ...versions.filter((version) => version > 10)]);
    expect(plan[0]!.label).toBe(backupLabel);
    expect(plan[1]!.label).toBe('Rebuilding the search index for faster search');
    for (const step of plan) expect(step.label).toMatch(/^[A-Z][^.]*[a-z]$/);
  });

  it('plans nothing for a library at the latest format, and no backup for a new one', () => {
    expect(planUpgrade(latest, versions, { sentences: 1000 })).toEqual([]);
    expect(planUpgrade(0, versions, { sentences: 0 }).map((step) => step.id)).toEqual(versions);
  });

  it('estimates the 1,000-hour upgrade the bench measured (24.9 s) within its 10,000-hour rate', () => {
    const total = (sentences: number): number =>
      planUpgrade(10, versions, { sentences }).reduce((sum, step) => sum + step.estimatedMs, 0);
    // Migrations 11 to 14 and the backup: the bench's 24,911 ms and 327,810 ms, rounded.
    expect(total(600_000)).toBeGreaterThan(24_000);
    expect(total(600_000)).toBeLessThan(35_000);
    expect(Math.abs(total(6_000_000) - 327_810) / 327_810).toBeLessThan(0.02);
  });

  it('grows with the sentences for every slow step', () => {
    fc.assert(
      fc.property(fc.nat(5_000_000), fc.integer({ min: 1, max: 1_000_000 }), (sentences, more) => {
        const small = planUpgrade(10, versions, { sentences });
        const large = planUpgrade(10, versions, { sentences: sentences + more });
        small.forEach((step, index) =>
          expect(large[index]!.estimatedMs).toBeGreaterThanOrEqual(step.estimatedMs),
        );
      }),
    );
  });
});

describe('where an upgrade stands', () => {
  const plan = planUpgrade(10, versions, { sentences: 600_000 });
  const planned = (from: number): number => plan.slice(from).reduce((sum, step) => sum + step.estimatedMs, 0);

  it('starts from the plan’s estimate', () => {
    expect(progressAt(plan, 0, [], 3)).toEqual({
      step: 1,
      steps: plan.length,
      label: backupLabel,
      elapsedMs: 3,
      estimatedRemainingMs: Math.round(planned(0)),
    });
  });

  it('corrects the rest of the estimate by how fast the steps already done went', () => {
    const backupTook = plan[0]!.estimatedMs * 2;
    const progress = progressAt(plan, 1, [backupTook], backupTook);
    expect(progress.step).toBe(2);
    expect(progress.label).toBe('Rebuilding the search index for faster search');
    expect(progress.estimatedRemainingMs).toBe(Math.round(planned(1) * 2));
  });

  it('leaves the estimate alone while the work done is too small to measure the machine', () => {
    const tiny = planUpgrade(10, versions, { sentences: 10 });
    const progress = progressAt(tiny, 1, [500], 500);
    expect(progress.estimatedRemainingMs).toBe(
      Math.round(tiny.slice(1).reduce((sum, step) => sum + step.estimatedMs, 0)),
    );
  });

  it('never counts up while the steps go as planned', () => {
    fc.assert(
      fc.property(fc.nat(2_000_000), (sentences) => {
        const steps = planUpgrade(10, versions, { sentences });
        let left = Infinity;
        const done: number[] = [];
        steps.forEach((step, index) => {
          const { estimatedRemainingMs } = progressAt(steps, index, done, 0);
          expect(estimatedRemainingMs).toBeLessThanOrEqual(left);
          left = estimatedRemainingMs;
          done.push(step.estimatedMs);
        });
      }),
    );
  });
});

describe('saying it', () => {
  it('says the time left as a journalist would', () => {
    expect(describeTimeLeft(4 * 60_000 + 10_000)).toBe('about 4 minutes left');
    expect(describeTimeLeft(60_000)).toBe('about 1 minute left');
    expect(describeTimeLeft(24_000)).toBe('about 20 seconds left');
    expect(describeTimeLeft(3_000)).toBe('a few seconds left');
    expect(describeTimeLeft(3 * 3_600_000)).toBe('about 3 hours left');
  });

  it('says how long it took', () => {
    expect(describeDuration(24_400)).toBe('24 s');
    expect(describeDuration(330_000)).toBe('5 min 30 s');
    expect(describeDuration(120_000)).toBe('2 min');
    expect(upgradeDoneLine(24_400)).toBe('Library updated in 24 s.');
  });

  it('puts a step on one line that ends with one full stop', () => {
    expect(
      progressLine({ step: 1, steps: 7, label: backupLabel, elapsedMs: 0, estimatedRemainingMs: 240_000 }),
    ).toBe('Upgrading the library, step 1 of 7: backing up your library, about 4 minutes left.');
  });
});
