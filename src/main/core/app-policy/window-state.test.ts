import { describe, expect, it } from 'vitest';
import { defaultWindowState, restoreWindowState } from './window-state';

const laptop = [{ x: 0, y: 0, width: 1440, height: 900 }];

describe('restoring the window', () => {
  it('keeps a saved position that is on a screen', () => {
    const saved = { x: 100, y: 80, width: 1200, height: 800, maximized: true };
    expect(restoreWindowState(saved, laptop)).toEqual(saved);
  });

  it('drops a position left on a monitor that is gone, but keeps the size', () => {
    const saved = { x: 2600, y: 100, width: 1000, height: 700, maximized: false };
    expect(restoreWindowState(saved, laptop)).toEqual({ width: 1000, height: 700, maximized: false });
  });

  it('falls back to defaults for a damaged or missing record', () => {
    expect(restoreWindowState(undefined, laptop)).toEqual(defaultWindowState);
    expect(restoreWindowState({ width: 'wide' }, laptop)).toEqual(defaultWindowState);
  });
});
