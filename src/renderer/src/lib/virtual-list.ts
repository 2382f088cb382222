/**
 * The arithmetic behind the reader's virtualized list: every row has an estimated height
 * until it has been rendered and measured; offsets are prefix sums, and the rows in view
 * are found by binary search, so a 3-hour transcript costs nothing until it is scrolled.
 */
export class RowHeights {
  private readonly heights: Float64Array;
  private offsets: Float64Array;
  private dirty = true;

  constructor(estimates: number[]) {
    this.heights = Float64Array.from(estimates);
    this.offsets = new Float64Array(estimates.length + 1);
  }

  get count(): number {
    return this.heights.length;
  }

  /** A row's height: measured, or else estimated. */
  heightOf(row: number): number {
    return this.heights[row] ?? 0;
  }

  /** Records a measured height; true when it changed. */
  set(row: number, height: number): boolean {
    if (row < 0 || row >= this.heights.length || Math.abs((this.heights[row] as number) - height) < 0.5) {
      return false;
    }
    this.heights[row] = height;
    this.dirty = true;
    return true;
  }

  /** Where a row begins, from the top of the list. */
  offset(row: number): number {
    this.refresh();
    return this.offsets[Math.max(0, Math.min(row, this.heights.length))] as number;
  }

  total(): number {
    return this.offset(this.heights.length);
  }

  /** The rows overlapping [top, top + height], widened by `overscan` rows on each side. */
  range(top: number, height: number, overscan: number): { start: number; end: number } {
    if (this.heights.length === 0) return { start: 0, end: 0 };
    const first = this.rowAt(top);
    const last = this.rowAt(top + height);
    return {
      start: Math.max(0, first - overscan),
      end: Math.min(this.heights.length, last + 1 + overscan),
    };
  }

  /** The row under a vertical position. */
  rowAt(y: number): number {
    this.refresh();
    let low = 0;
    let high = this.heights.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((this.offsets[mid] as number) <= y) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  private refresh(): void {
    if (!this.dirty) return;
    let sum = 0;
    for (let i = 0; i < this.heights.length; i++) {
      this.offsets[i] = sum;
      sum += this.heights[i] as number;
    }
    this.offsets[this.heights.length] = sum;
    this.dirty = false;
  }
}

/**
 * The heights of a list after its rows changed (an edit, an undo, the whole transcript after
 * its opening), keeping what was measured: rows equal to the old ones at the start and at the
 * end keep their heights, and when as many rows changed between them as were there before (a
 * word fixed in a turn), those keep theirs too: their elements stay in the page, and a row
 * whose height really changes is measured again as it resizes. Only rows added or removed get
 * estimates. Estimating every row afresh moved every row below a measured one, so an undo
 * rendered and measured rows it had not touched.
 */
export function carriedHeights<Row>(
  previous: { rows: readonly Row[]; heights: RowHeights } | undefined,
  rows: readonly Row[],
  estimate: (row: Row) => number,
  same: (a: Row, b: Row) => boolean,
): RowHeights {
  const heights = new RowHeights(rows.map(estimate));
  if (!previous || previous.heights.count !== previous.rows.length) return heights;
  const old = previous.rows;
  const shorter = Math.min(old.length, rows.length);
  let start = 0;
  while (start < shorter && same(old[start] as Row, rows[start] as Row)) start++;
  let end = 0;
  while (end < shorter - start && same(old[old.length - 1 - end] as Row, rows[rows.length - 1 - end] as Row))
    end++;
  const keep = (from: number, to: number, count: number): void => {
    for (let row = 0; row < count; row++) heights.set(to + row, previous.heights.heightOf(from + row));
  };
  keep(0, 0, start);
  keep(old.length - end, rows.length - end, end);
  if (old.length === rows.length) keep(start, start, rows.length - start - end);
  return heights;
}

/** A first guess at a turn's height from its length, before it is measured. */
export function estimateHeight(characters: number, width: number): number {
  const charsPerLine = Math.max(20, Math.floor(width / 8.5));
  // The speaker and time stand in a gutter beside the text, two lines high: a turn is never shorter.
  const lines = Math.max(2, Math.ceil(characters / charsPerLine));
  // The text lines (1.6 × 16 px), and the gap between turns.
  return Math.round(lines * 25.6) + 16;
}

/** What `measureRow` needs of the list: read at each measurement, so a rebuilt list is followed. */
export interface MeasuredList {
  heights: () => RowHeights;
  scroller: () => HTMLElement | undefined;
  /** Called after a measurement moved the rows, so the list recomputes what is in view. */
  moved: () => void;
}

/**
 * Measures a rendered row as it resizes (an attachment: pass the element, get the cleanup). A
 * row above the viewport that grows pushes the scroll by as much, so the rows in view stay put.
 * `measured`, if given, hears every height measured (a list that keeps heights by key).
 */
export function measureRow(
  list: MeasuredList,
  row: number,
  measured?: (height: number) => void,
): (element: HTMLElement) => () => void {
  return (element) => {
    const observer = new ResizeObserver(() => {
      measured?.(element.offsetHeight);
      const heights = list.heights();
      const before = heights.offset(row);
      const old = heights.offset(row + 1) - before;
      if (!heights.set(row, element.offsetHeight)) return;
      const scroller = list.scroller();
      if (scroller && before < scroller.scrollTop) scroller.scrollTop += element.offsetHeight - old;
      list.moved();
    });
    observer.observe(element);
    return () => observer.disconnect();
  };
}

/**
 * Heights measured so far by row key, for a list rebuilt often (a progress event, a filter): a
 * row already measured (one taller than the estimate) keeps its height in the new RowHeights.
 */
export class KeyedHeights {
  private readonly known = new Map<string, number>();

  constructor(private readonly estimate: number) {}

  /**
   * The rows' heights, each as last measured or else the estimate. Heights of rows no longer
   * listed (deleted, or filtered out for now) are forgotten, so the map never outgrows the list;
   * a row shown again is measured again.
   */
  heightsOf(keys: readonly string[]): RowHeights {
    const listed = new Set(keys);
    for (const key of this.known.keys()) if (!listed.has(key)) this.known.delete(key);
    return new RowHeights(keys.map((key) => this.known.get(key) ?? this.estimate));
  }

  /** How many rows' heights are kept. */
  get size(): number {
    return this.known.size;
  }

  remember(key: string, height: number): void {
    this.known.set(key, height);
  }
}
