import { describe, expect, it } from 'vitest';
import { UnsavedEdits } from './unsaved-edits';

describe("a quit's request for the pages' typing", () => {
  it('resolves once every page answered its own request, and ignores answers to none', async () => {
    const edits = new UnsavedEdits();
    const asked: number[] = [];
    const following = edits.requested.subscribe(({ request }) => asked.push(request));
    let done = false;
    const flushed = edits.flush(2).then(() => (done = true));
    expect(asked).toEqual([1]);
    edits.flushed(1);
    edits.flushed(7);
    await Promise.resolve();
    expect(done).toBe(false);
    edits.flushed(1);
    await flushed;
    expect(done).toBe(true);
    // No page open: nothing to ask.
    await edits.flush(0);
    expect(asked).toEqual([1]);
    following.dispose();
  });
});
