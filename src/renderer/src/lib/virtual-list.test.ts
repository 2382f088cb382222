import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { KeyedHeights, RowHeights, carriedHeights, estimateHeight, measureRow } from './virtual-list';

describe('RowHeights', () => {
  it('computes offsets and the rows in view, widened by the overscan', () => {
    const rows = new RowHeights([100, 100, 100, 100, 100]);
    expect(rows.total()).toBe(500);
    expect(rows.offset(3)).toBe(300);
    expect(rows.rowAt(0)).toBe(0);
    expect(rows.rowAt(250)).toBe(2);
    expect(rows.rowAt(9999)).toBe(4);
    expect(rows.range(150, 100, 0)).toEqual({ start: 1, end: 3 });
    expect(rows.range(150, 100, 1)).toEqual({ start: 0, end: 4 });
  });

  it('moves later rows when a measured height differs from the estimate', () => {
    const rows = new RowHeights([100, 100, 100]);
    expect(rows.set(0, 150)).toBe(true);
    expect(rows.set(0, 150.2)).toBe(false);
    expect(rows.set(7, 10)).toBe(false);
    expect(rows.offset(1)).toBe(150);
    expect(rows.total()).toBe(350);
  });

  // Its speed is the reader's scroll benchmark (npm run bench -- reader), not a timed test here.
  it('is empty-safe and finds the rows in view anywhere in a 3-hour transcript as a scan would', () => {
    expect(new RowHeights([]).range(0, 100, 3)).toEqual({ start: 0, end: 0 });
    const sizes = Array.from({ length: 20_000 }, (_, i) => 60 + (i % 7));
    const rows = new RowHeights(sizes);
    for (let y = 0; y < 1_000_000; y += 99_991) {
      let top = 0;
      let first = 0;
      while (top + sizes[first]! <= y) top += sizes[first++]!;
      expect(rows.range(y, 800, 0).start).toBe(first);
    }
  });
});

describe('carriedHeights', () => {
  const estimate = (row: string): number => 10 * row.length;
  const same = (a: string, b: string): boolean => a === b;
  /** Rows, each measured (a height of its own) or not, and an edit of them: what replaced which span. */
  const edits = fc.record({
    // Distinct rows: two rows alike (same text, same speaker) are drawn alike, whichever is kept.
    rows: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 20 }),
    measured: fc.array(fc.option(fc.integer({ min: 1, max: 500 })), { maxLength: 20 }),
    at: fc.nat(),
    removed: fc.nat({ max: 4 }),
    inserted: fc.array(fc.string({ minLength: 5, maxLength: 6 }), { maxLength: 4 }),
  });

  it('keeps the measured heights of rows an edit left alone, and of rows edited in place', () => {
    fc.assert(
      fc.property(edits, ({ rows, measured, at, removed, inserted }) => {
        const before = new RowHeights(rows.map(estimate));
        rows.forEach((_, row) => {
          const height = measured[row];
          if (height != null) before.set(row, height);
        });
        const from = rows.length ? at % (rows.length + 1) : 0;
        const gone = Math.min(removed, rows.length - from);
        // Inserted rows are longer than any old one, so they never equal one.
        const after = [...rows.slice(0, from), ...inserted, ...rows.slice(from + gone)];
        const heights = carriedHeights({ rows, heights: before }, after, estimate, same);
        expect(heights.count).toBe(after.length);
        for (let row = 0; row < from; row++) expect(heights.heightOf(row)).toBe(before.heightOf(row));
        const tail = rows.length - from - gone;
        for (let row = 0; row < tail; row++)
          expect(heights.heightOf(after.length - 1 - row)).toBe(before.heightOf(rows.length - 1 - row));
        for (let row = 0; row < inserted.length; row++) {
          const expected = inserted.length === gone ? before.heightOf(from + row) : estimate(inserted[row]!);
          expect(heights.heightOf(from + row)).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('estimates every row of a first list, or of one its heights do not describe', () => {
    expect(
      Array.from({ length: 2 }, (_, row) =>
        carriedHeights(undefined, ['ab', 'c'], estimate, same).heightOf(row),
      ),
    ).toEqual([20, 10]);
    const stale = { rows: ['ab', 'c'], heights: new RowHeights([99]) };
    expect(carriedHeights(stale, ['ab', 'c'], estimate, same).heightOf(0)).toBe(20);
  });
});

describe('estimateHeight', () => {
  it('grows with the text and never falls below the gutter’s two lines', () => {
    expect(estimateHeight(0, 700)).toBe(67);
    expect(estimateHeight(2000, 700)).toBeGreaterThan(estimateHeight(200, 700));
  });
});

describe('measureRow', () => {
  /** A ResizeObserver the test fires by hand, as the browser would after a layout. */
  class FakeObserver {
    static last: FakeObserver | undefined;
    observed: unknown[] = [];
    disconnected = false;
    constructor(readonly callback: () => void) {
      FakeObserver.last = this;
    }
    observe(element: unknown): void {
      this.observed.push(element);
    }
    disconnect(): void {
      this.disconnected = true;
    }
  }

  function setUp(scrollTop: number, measured?: (height: number) => void) {
    vi.stubGlobal('ResizeObserver', FakeObserver);
    const heights = new RowHeights([100, 100, 100, 100]);
    const scroller = { scrollTop } as HTMLElement;
    const moved = vi.fn();
    const element = { offsetHeight: 100 } as HTMLElement;
    const cleanup = measureRow(
      { heights: () => heights, scroller: () => scroller, moved },
      1,
      measured,
    )(element);
    return { heights, scroller, moved, element, cleanup, observer: FakeObserver.last! };
  }

  it('tells a keyed list every height it measures, with one observer a row', () => {
    const seen: number[] = [];
    const { element, observer } = setUp(0, (height) => seen.push(height));
    observer.callback();
    (element as { offsetHeight: number }).offsetHeight = 140;
    observer.callback();
    expect(seen).toEqual([100, 140]);
  });

  afterEach(() => vi.unstubAllGlobals());

  it('records the height a row takes and tells the list, keeping the scroll when the row is below it', () => {
    const { heights, scroller, moved, element, observer } = setUp(0);
    expect(observer.observed).toEqual([element]);
    observer.callback();
    expect(moved).not.toHaveBeenCalled();
    (element as { offsetHeight: number }).offsetHeight = 160;
    observer.callback();
    expect(heights.offset(2)).toBe(260);
    expect(moved).toHaveBeenCalledTimes(1);
    expect(scroller.scrollTop).toBe(0);
  });

  it('pushes the scroll by the growth of a row above the viewport, and stops observing on cleanup', () => {
    const { scroller, element, observer, cleanup } = setUp(250);
    (element as { offsetHeight: number }).offsetHeight = 130;
    observer.callback();
    expect(scroller.scrollTop).toBe(280);
    cleanup();
    expect(observer.disconnected).toBe(true);
  });
});

describe('KeyedHeights', () => {
  it('keeps a measured row’s height when the list is rebuilt in another order, and estimates new rows', () => {
    const measured = new KeyedHeights(36);
    expect(measured.heightsOf(['a', 'b', 'c']).total()).toBe(108);
    measured.remember('b', 60);
    const rebuilt = measured.heightsOf(['c', 'b', 'new', 'a']);
    expect(rebuilt.offset(1)).toBe(36);
    expect(rebuilt.offset(2)).toBe(96);
    expect(rebuilt.total()).toBe(168);
  });

  it('forgets the heights of rows no longer listed, so it never outgrows the list', () => {
    const measured = new KeyedHeights(36);
    const ids = Array.from({ length: 50 }, (_, index) => `t${index}`);
    for (let round = 0; round < 20; round++) {
      const listed = ids.slice(round, round + 10);
      measured.heightsOf(listed);
      for (const id of listed) measured.remember(id, 60);
    }
    expect(measured.size).toBeLessThanOrEqual(10);
    expect(measured.heightsOf(['t28', 't0']).total()).toBe(60 + 36);
  });
});
