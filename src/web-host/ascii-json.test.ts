import { describe, expect, it } from 'vitest';
import { toAsciiJson } from './ascii-json';

/** Any UTF-16 code unit above 0x7f. */
const nonAscii = /[\u0080-\uffff]/;

describe('toAsciiJson', () => {
  it('writes curly quotes, accents, CJK and an emoji as escapes that parse back to the same value', () => {
    const value = {
      label: 'Undo “Léa” → “Lea”',
      text: 'Crème brûlée — naïve façade, Ærøskøbing, Łódź',
      cjk: '東京で会いましょう',
      emoji: 'on air 🎙️ now',
      nested: [{ speaker: 'Zoë', words: ['é', '“', '🎙'] }],
      escapes: 'a "quote", a \\ and a\nnewline',
    };
    const json = toAsciiJson(value);
    expect(json).not.toMatch(nonAscii);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('keeps a character beyond the BMP as its two surrogates, and lowercase hex like JSON.stringify', () => {
    expect(toAsciiJson('🎙')).toBe('"\\ud83c\\udf99"');
    expect(toAsciiJson('“é”')).toBe('"\\u201c\\u00e9\\u201d"');
  });

  it('keeps a lone surrogate as JSON.stringify escapes it', () => {
    const loneSurrogate = 'a\ud800b';
    expect(toAsciiJson(loneSurrogate)).toBe(JSON.stringify(loneSurrogate));
    expect(JSON.parse(toAsciiJson(loneSurrogate))).toBe(loneSurrogate);
  });

  it('leaves an ASCII message exactly as JSON.stringify writes it', () => {
    const value = { id: 7, result: { ok: true, value: { text: 'plain words', n: [1, 2.5, null] } } };
    expect(toAsciiJson(value)).toBe(JSON.stringify(value));
  });
});
