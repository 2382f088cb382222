import { describe, expect, it } from 'vitest';
import { quoteCheckLabel } from './quote-check-label';

describe("a quote's check as the views say it", () => {
  it('names the colleague who checked it, the reporter as you, and says when it is not checked', () => {
    const at = Date.UTC(2026, 10, 3, 12);
    expect(quoteCheckLabel({ by: 'ana', at }, 'UTC')).toBe('Checked against the audio by ana on Nov 3, 2026');
    expect(quoteCheckLabel({ by: null, at }, 'UTC')).toBe('Checked against the audio by you on Nov 3, 2026');
    expect(quoteCheckLabel(null)).toBe('Not checked against the audio');
  });
});
