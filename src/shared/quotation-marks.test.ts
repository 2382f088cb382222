import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inQuotationMarks, quotationMarks, quotationMarksByLanguage } from './quotation-marks';
import { languageCodes } from './transcription/language-codes';

describe('quotation marks by language', () => {
  it('has typographic marks for every language the app knows, never a typewriter quote', () => {
    expect(Object.keys(quotationMarksByLanguage).sort()).toEqual([...languageCodes].sort());
    for (const code of languageCodes) {
      const { open, close } = quotationMarksByLanguage[code];
      // A mark is punctuation (and the no-break space French sets it off with), never a letter.
      for (const mark of [open, close]) {
        expect(mark, code).toMatch(/^[\p{P}\u00a0]+$/u);
        expect(mark, code).not.toMatch(/["'`]/);
      }
    }
  });

  it('writes English, French, German and Spanish as their own press does', () => {
    const table: [string, string][] = [
      ['en', '“Yes.”'],
      ['en_uk', '“Yes.”'],
      ['fr', '«\u00a0Oui.\u00a0»'],
      ['de', '„Ja.“'],
      ['de_ch', '«Ja.»'],
      ['es', '«Sí.»'],
      ['ja', '「はい。」'],
      ['pl', '„Tak.”'],
      ['sv', '”Ja.”'],
      ['da', '»Ja.«'],
    ];
    for (const [code, expected] of table) {
      const words = expected.slice(quotationMarks(code).open.length, -quotationMarks(code).close.length);
      expect(inQuotationMarks(words, code), code).toBe(expected);
    }
  });

  it('takes a region the table does not name from its language, and an unknown language as English', () => {
    expect(quotationMarks('fr_ca')).toEqual(quotationMarks('fr'));
    expect(quotationMarks('pt-BR')).toEqual(quotationMarks('pt'));
    expect(quotationMarks('DE')).toEqual(quotationMarks('de'));
    expect(quotationMarks(null)).toEqual(quotationMarks('en'));
    expect(quotationMarks('xx')).toEqual(quotationMarks('en'));
  });

  it('never changes the words between the marks', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...languageCodes, null, 'fr_ca', 'zz'), (text, code) => {
        const { open, close } = quotationMarks(code);
        const quoted = inQuotationMarks(text, code);
        expect(quoted.startsWith(open)).toBe(true);
        expect(quoted.endsWith(close)).toBe(true);
        expect(quoted.slice(open.length, quoted.length - close.length)).toBe(text);
      }),
    );
  });
});
