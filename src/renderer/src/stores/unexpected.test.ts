import { afterEach, describe, expect, it, vi } from 'vitest';
import { VerbatimError } from '../../../shared/errors';

const write = vi.fn((_input: { level: string; message: string; details?: string }) => Promise.resolve({}));
vi.mock('../lib/api', () => ({ api: { log: { write } } }));
vi.spyOn(console, 'error').mockImplementation(() => undefined);

const { unexpected } = await import('./unexpected.svelte');
const { unexpectedMessage } = await import('../lib/error-message');

/** An event as the window sends it, with the fields the listener reads. */
function event(type: string, fields: Record<string, unknown>): Event {
  return Object.assign(new Event(type), fields);
}

afterEach(() => {
  unexpected.dismiss();
  write.mockClear();
});

describe('unexpected errors', () => {
  it('shows and logs an error thrown where nothing caught it', () => {
    const target = new EventTarget();
    const stop = unexpected.listen(target as unknown as Window);
    target.dispatchEvent(
      event('error', { message: 'Uncaught TypeError: x is null', error: new TypeError('x is null') }),
    );
    expect(unexpected.current?.message).toBe(unexpectedMessage);
    expect(unexpected.current?.details).toContain('Error: TypeError: x is null');
    expect(write).toHaveBeenCalledWith({
      level: 'error',
      message: 'Unexpected error in the window: an uncaught error in the window',
      details: unexpected.current?.details,
    });
    stop();
  });

  it('shows and logs a promise that failed with nobody waiting', () => {
    const target = new EventTarget();
    const stop = unexpected.listen(target as unknown as Window);
    target.dispatchEvent(event('unhandledrejection', { reason: new RangeError('Invalid array length') }));
    expect(unexpected.current?.details).toContain('Where: a failure nothing waited for');
    expect(write).toHaveBeenCalledTimes(1);
    stop();
  });

  it("ignores the browser's resize-observer note, and stops listening when told", () => {
    const target = new EventTarget();
    const stop = unexpected.listen(target as unknown as Window);
    target.dispatchEvent(
      event('error', {
        message: 'ResizeObserver loop completed with undelivered notifications.',
        error: null,
      }),
    );
    expect(unexpected.current).toBeUndefined();
    stop();
    target.dispatchEvent(event('unhandledrejection', { reason: new Error('later') }));
    expect(unexpected.current).toBeUndefined();
    expect(write).not.toHaveBeenCalled();
  });

  it('says a declared failure in its own words, with nothing to log', () => {
    unexpected.report(new VerbatimError('network', 'The connection to Verbatim was lost.'), 'somewhere');
    expect(unexpected.current).toEqual({ message: 'The connection to Verbatim was lost.' });
    expect(write).not.toHaveBeenCalled();
  });
});
