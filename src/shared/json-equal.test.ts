import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual } from './json-equal';

/** The same value with every object's keys in reverse order, as a trip through a schema may leave them. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reordered(item)]),
  );
}

describe('jsonEqual', () => {
  it('is true of any JSON value and the same value with its keys in another order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonEqual(value, reordered(value))).toBe(true);
        expect(jsonEqual(JSON.parse(JSON.stringify(value)), value)).toBe(true);
      }),
    );
  });

  it('agrees with comparing the two as JSON with their keys sorted, for any two values', () => {
    const sortedJson = (value: unknown): string =>
      JSON.stringify(value, (_key, item: unknown) =>
        item && typeof item === 'object' && !Array.isArray(item)
          ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
          : item,
      );
    const small = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(small, small, (first, second) => {
        expect(jsonEqual(first, second)).toBe(sortedJson(first) === sortedJson(second));
      }),
    );
  });

  it('counts a key holding undefined as absent, as JSON does, and tells arrays from objects', () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(
      jsonEqual(
        { words: [{ text: 'a', corrected: true, speaker: 'B' }] },
        { words: [{ speaker: 'B', text: 'a', corrected: true }] },
      ),
    ).toBe(true);
  });
});
