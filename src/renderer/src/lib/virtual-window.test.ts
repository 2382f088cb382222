import { describe, expect, it } from 'vitest';
import { RowHeights } from './virtual-list';
import { VirtualWindow } from './virtual-window.svelte';

function window100(heights: RowHeights): VirtualWindow {
  return new VirtualWindow({
    heights: () => heights,
    scroller: () => undefined,
    overscan: 2,
    viewHeight: 100,
  });
}

describe('VirtualWindow', () => {
  it('shows the rows in view, widened by the overscan', () => {
    const view = window100(new RowHeights(new Array<number>(50).fill(20)));
    expect(view.viewHeight).toBe(100);
    expect(view.range).toEqual({ start: 0, end: 8 });
    expect(view.padTop).toBe(0);
    expect(view.total).toBe(1000);
  });

  it('follows the scroll position', () => {
    const view = window100(new RowHeights(new Array<number>(50).fill(20)));
    view.scrollTop = 400;
    expect(view.range).toEqual({ start: 18, end: 28 });
    expect(view.padTop).toBe(360);
  });

  it('recomputes after a measurement moved the rows', () => {
    const heights = new RowHeights(new Array<number>(50).fill(20));
    const view = window100(heights);
    view.scrollTop = 400;
    expect(view.total).toBe(1000);
    heights.set(0, 220);
    view.measured.moved();
    expect(view.total).toBe(1200);
    expect(view.range).toEqual({ start: 8, end: 18 });
    expect(view.padTop).toBe(360);
  });

  it('follows a rebuilt list', () => {
    let heights = new RowHeights(new Array<number>(50).fill(20));
    const view = new VirtualWindow({
      heights: () => heights,
      scroller: () => undefined,
      overscan: 2,
      viewHeight: 100,
    });
    expect(view.total).toBe(1000);
    heights = new RowHeights([10, 10]);
    view.measured.moved();
    expect(view.total).toBe(20);
    expect(view.range).toEqual({ start: 0, end: 2 });
  });
});
