import { describe, expect, it } from 'vitest';
import { formatAge, formatPerMillion, formatPrice, formatTokens, perMillion } from './catalog-format';

describe('catalog numbers in words', () => {
  it('turns per-token price strings into dollars per million tokens', () => {
    expect(perMillion('0.000003')).toBeCloseTo(3);
    expect(perMillion('0')).toBe(0);
    expect(perMillion('-1')).toBeNull();
    expect(perMillion('abc')).toBeNull();
    expect(perMillion(undefined)).toBeNull();
    expect(formatPerMillion('0.000015')).toBe('$15.00 / M tokens');
    expect(formatPerMillion('0.000000075')).toBe('$0.075 / M tokens');
    // 0.0000001 × 1,000,000 is 0.09999999999999999 in binary: still ten cents, written as cents.
    expect(formatPerMillion('0.0000001')).toBe('$0.10 / M tokens');
    expect(formatPerMillion('0.00000004')).toBe('$0.04 / M tokens');
    expect(formatPerMillion('0')).toBe('Free');
    expect(formatPrice(1234.5)).toBe('$1,234.50');
    expect(formatPrice(null)).toBe('Unknown');
  });

  it('writes token counts and ages compactly', () => {
    expect(formatTokens(1_000_000)).toBe('1M');
    expect(formatTokens(131_072)).toBe('131.1K');
    expect(formatTokens(null)).toBe('Unknown');
    expect(formatAge(20_000)).toBe('just now');
    expect(formatAge(60_000)).toBe('1 minute ago');
    expect(formatAge(3 * 3_600_000)).toBe('3 hours ago');
    expect(formatAge(3 * 86_400_000)).toBe('3 days ago');
  });
});
