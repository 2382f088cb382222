import { afterEach, describe, expect, it, vi } from 'vitest';
import { Shutdown } from './shutdown';

/** A log that keeps its lines, for the test to read. */
function recordingLog(): { lines: string[]; warn(message: string): void; error(message: string): void } {
  const lines: string[] = [];
  return {
    lines,
    warn: (message) => lines.push(`warn: ${message}`),
    error: (message) => lines.push(`error: ${message}`),
  };
}

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('an orderly quit', () => {
  it('awaits a slow owner before it resolves', async () => {
    vi.useFakeTimers();
    const log = recordingLog();
    const shutdown = new Shutdown(log);
    const recording = deferred();
    const closeRecorder = vi.fn(() => recording.promise);
    shutdown.onWillShutdown('the recorder', closeRecorder);
    let finished = false;
    const done = shutdown.shutdown(5_000).then((report) => ((finished = true), report));
    await vi.advanceTimersByTimeAsync(4_000);
    expect(closeRecorder).toHaveBeenCalledTimes(1);
    expect(finished).toBe(false);
    recording.resolve();
    expect(await done).toEqual({ unfinished: [], failed: [] });
    expect(log.lines).toEqual([]);
  });

  it('cuts an owner that never finishes at the bound and names it in the log', async () => {
    vi.useFakeTimers();
    const log = recordingLog();
    const shutdown = new Shutdown(log);
    shutdown.onWillShutdown('the stuck upload', () => new Promise(() => undefined));
    shutdown.onWillShutdown('the recorder', () => Promise.resolve());
    const done = shutdown.shutdown(3_000);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await done).toEqual({ unfinished: ['the stuck upload'], failed: [] });
    expect(log.lines).toEqual([
      'warn: the stuck upload did not finish within 3000 ms of the quit; Verbatim closed without it',
    ]);
  });

  it('closes the library last, after the work and the connections, even when an owner failed', async () => {
    const log = recordingLog();
    const shutdown = new Shutdown(log);
    const order: string[] = [];
    const edits = deferred();
    shutdown.onWillShutdown('the library', async () => void order.push('library'), 'library');
    shutdown.onWillShutdown('the pages', async () => void order.push('pages'), 'connections');
    shutdown.onWillShutdown('unsaved edits', async () => {
      await edits.promise;
      order.push('edits');
    });
    shutdown.onWillShutdown('the assistant', () => Promise.reject(new Error('the line dropped')));
    const done = shutdown.shutdown(60_000);
    await vi.waitFor(() => expect(log.lines).toHaveLength(1));
    expect(order).toEqual([]);
    edits.resolve();
    expect(await done).toEqual({ unfinished: [], failed: ['the assistant'] });
    expect(order).toEqual(['edits', 'pages', 'library']);
    expect(log.lines).toEqual(['error: the assistant did not close cleanly']);
  });

  it('runs once however many times the quit is asked for', async () => {
    const shutdown = new Shutdown(recordingLog());
    const close = vi.fn(() => Promise.resolve());
    shutdown.onWillShutdown('the recorder', close);
    expect(shutdown.started).toBe(false);
    const first = shutdown.shutdown(1_000);
    expect(shutdown.started).toBe(true);
    expect(shutdown.shutdown(1_000)).toBe(first);
    await first;
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('waits for joined work still under way, and forgets work that already settled', async () => {
    const shutdown = new Shutdown(recordingLog());
    const publish = deferred();
    const settled = Promise.resolve();
    shutdown.join(settled, 'an export already written');
    shutdown.join(publish.promise, 'the publish');
    await settled;
    let finished = false;
    const done = shutdown.shutdown(60_000).then(() => (finished = true));
    await Promise.resolve();
    expect(finished).toBe(false);
    publish.resolve();
    await done;
    expect(finished).toBe(true);
  });

  it('forgets an owner whose registration was disposed', async () => {
    const shutdown = new Shutdown(recordingLog());
    const close = vi.fn(() => Promise.resolve());
    shutdown.onWillShutdown('a window closed earlier', close).dispose();
    await shutdown.shutdown(1_000);
    expect(close).not.toHaveBeenCalled();
  });
});
