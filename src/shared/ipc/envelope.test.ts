import { describe, expect, it } from 'vitest';
import { failure, success, unwrap } from './envelope';
import { VerbatimError } from '../errors';

describe('the result envelope', () => {
  it('carries a value through unchanged', () => {
    expect(unwrap(success({ a: 1 }))).toEqual({ a: 1 });
  });

  it('turns a typed error into an envelope and back into the same typed error', () => {
    const original = new VerbatimError('not_found', 'That transcript is gone.', { id: 'abc' });
    const envelope = failure(original);
    expect(envelope).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'That transcript is gone.', details: { id: 'abc' } },
    });
    // Envelopes cross a process boundary: only what survives structured clone / JSON counts.
    const crossed = JSON.parse(JSON.stringify(envelope)) as typeof envelope;
    let thrown: unknown;
    try {
      unwrap(crossed);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VerbatimError);
    expect(thrown).toMatchObject({
      code: 'not_found',
      message: 'That transcript is gone.',
      details: { id: 'abc' },
    });
  });

  it('wraps an unexpected error as internal, without a stack', () => {
    const envelope = failure(new TypeError('x is undefined'));
    expect(envelope.ok).toBe(false);
    if (envelope.ok) return;
    expect(envelope.error.code).toBe('internal');
    expect(envelope.error.message).toContain('x is undefined');
    expect(JSON.stringify(envelope)).not.toContain('at ');
  });

  it('treats an unknown error code or a malformed reply as internal', () => {
    expect(() => unwrap({ ok: false, error: { code: 'weird' as never, message: 'm' } })).toThrow(
      expect.objectContaining({ code: 'internal', message: 'm' }) as Error,
    );
    expect(() => unwrap({ nonsense: true } as never)).toThrow(VerbatimError);
  });
});
