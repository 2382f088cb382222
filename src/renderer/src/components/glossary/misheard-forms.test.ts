import { describe, expect, it } from 'vitest';
import { formsFromText, formsToText } from './misheard-forms';

describe('misheard forms typed in one field', () => {
  it('split at commas or semicolons, without empty pieces or repeats', () => {
    expect(formsFromText(' Brenan, Bren Ann;; brennan ,Brenan, ')).toEqual(['Brenan', 'Bren Ann', 'brennan']);
    expect(formsFromText('  ')).toEqual([]);
  });

  it('show as the field reads them back', () => {
    expect(formsToText(['Brenan', 'Bren Ann'])).toBe('Brenan, Bren Ann');
    expect(formsFromText(formsToText(['Gull', 'Gul']))).toEqual(['Gull', 'Gul']);
  });
});
