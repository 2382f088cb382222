import type { MeasuredList, RowHeights } from './virtual-list';

/** What a list gives its window: read on every use, so a rebuilt list or a new scroller is followed. */
export interface VirtualWindowSource {
  heights: () => RowHeights;
  scroller: () => HTMLElement | undefined;
  /** Rows rendered above and below the viewport, so a quick scroll does not show blank space. */
  overscan: number;
  /** A guess at the viewport's height until the scroller is bound and reports its own. */
  viewHeight: number;
}

/**
 * The reactive half of a virtualized list: where it is scrolled, which rows are in view and
 * how far they sit from the top. RowHeights is plain data, so `version` is what tells Svelte
 * a measurement moved the rows.
 */
export class VirtualWindow {
  scrollTop = $state(0);
  viewHeight = $state(0);
  version = $state(0);

  readonly range = $derived.by(() => {
    void this.version;
    return this.source.heights().range(this.scrollTop, this.viewHeight, this.source.overscan);
  });
  readonly padTop = $derived.by(() => {
    void this.version;
    return this.source.heights().offset(this.range.start);
  });
  readonly total = $derived.by(() => {
    void this.version;
    return this.source.heights().total();
  });

  /** What measureRow needs: each rendered row is measured and moves the window when it resizes. */
  readonly measured: MeasuredList;

  private readonly source: VirtualWindowSource;

  constructor(source: VirtualWindowSource) {
    this.source = source;
    this.viewHeight = source.viewHeight;
    this.measured = { heights: source.heights, scroller: source.scroller, moved: () => this.version++ };
  }

  /** Follows the scroller after the user (or code) scrolled it. */
  syncScroll(): void {
    this.scrollTop = this.source.scroller()?.scrollTop ?? 0;
  }
}
