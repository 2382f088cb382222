import { describe, expect, it } from 'vitest';
import { dateTerms, facetQuery } from './search-facets';

describe('dateTerms', () => {
  it('covers one day, a whole month and a whole year with one term each', () => {
    expect(dateTerms({ from: Date.UTC(2026, 10, 25, 9), to: Date.UTC(2026, 10, 25, 17) })).toEqual([
      'xd20261125',
    ]);
    expect(dateTerms({ from: Date.UTC(2024, 1, 1), to: Date.UTC(2024, 1, 29, 23) })).toEqual(['xm202402']);
    expect(dateTerms({ from: Date.UTC(2025, 0, 1), to: Date.UTC(2025, 11, 31) })).toEqual(['xy2025']);
  });

  it('covers ragged edges with days, then months, then years', () => {
    expect(dateTerms({ from: Date.UTC(2024, 10, 29), to: Date.UTC(2026, 1, 2, 12) })).toEqual([
      'xd20241129',
      'xd20241130',
      'xm202412',
      'xy2025',
      'xm202601',
      'xd20260201',
      'xd20260202',
    ]);
    // A February that is not whole stays in days, leap day included.
    expect(dateTerms({ from: Date.UTC(2024, 1, 27), to: Date.UTC(2024, 1, 29) })).toEqual([
      'xd20240227',
      'xd20240228',
      'xd20240229',
    ]);
  });

  it('keeps a decade with the worst edges to one short OR', () => {
    const terms = dateTerms({ from: Date.UTC(2016, 0, 2), to: Date.UTC(2025, 11, 30) });
    expect(terms).toHaveLength(30 + 11 + 8 + 11 + 30);
    expect(terms).toContain('xy2020');
    expect(new Set(terms).size).toBe(terms.length);
  });

  it('is empty when the span ends before it starts', () => {
    expect(dateTerms({ from: Date.UTC(2026, 0, 2), to: Date.UTC(2026, 0, 1) })).toEqual([]);
    expect(dateTerms({ from: Date.UTC(2026, 0, 1, 10), to: Date.UTC(2026, 0, 1, 9) })).toEqual([]);
  });
});

describe('facetQuery', () => {
  it('joins tag, speaker and dates on the facets column, and says when a span matches nothing', () => {
    expect(facetQuery({})).toBeUndefined();
    expect(facetQuery({ tag: 'Ferry' }, { from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 2) })).toBe(
      'facets : (xt6665727279 AND (xd20260101 OR xd20260102))',
    );
    expect(facetQuery({ speaker: 'A' }, { from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 1) })).toBe(
      'facets : ((xl41 OR xn61) AND xd20260101)',
    );
    expect(facetQuery({}, { from: 2, to: 1 })).toBeNull();
  });
});
