import { describe, expect, it } from 'vitest';
import { checkTranscriptionOptions } from '../transcription/request-options';
import type { GlossaryEntry } from './glossary';
import { glossaryContribution, keytermLimit, withGlossaries } from './glossary-request';

let nextId = 1;
function entry(term: string, misheard: string[] = [], usedAt = 0): GlossaryEntry {
  return { id: nextId++, glossaryId: 1, term, kind: 'term', misheard, note: '', usedAt };
}

describe('glossaryContribution', () => {
  it('sends every spelling as a key term after the journalist’s own, once, ignoring case', () => {
    const result = glossaryContribution(
      [entry('Brennan', [], 3), entry('Gull Island', [], 2), entry('brennan', [], 1), entry('Ortiz', [], 2)],
      { keyterms_prompt: ['ferry', 'ORTIZ'] },
    );
    expect(result.keyterms).toEqual(['Brennan', 'Gull Island']);
    expect(result).toMatchObject({ leftOut: [], notExpressible: [], customSpelling: [] });
  });

  it('keeps the most recently used within the speech model’s limit and names the rest', () => {
    const entries = Array.from({ length: 205 }, (_, i) => entry(`Name${String(i).padStart(3, '0')}`, [], i));
    const u2 = glossaryContribution(entries, { speech_models: ['universal-2'] });
    expect(keytermLimit({ speech_models: ['universal-2'] })).toBe(200);
    expect(u2.keyterms).toHaveLength(200);
    expect(u2.keyterms[0]).toBe('Name204');
    expect(u2.leftOut).toEqual(['Name004', 'Name003', 'Name002', 'Name001', 'Name000']);
    // The journalist's own ten key terms take their room first.
    const own = Array.from({ length: 10 }, (_, i) => `own ${i}`);
    const shared = glossaryContribution(entries, { speech_models: ['universal-2'], keyterms_prompt: own });
    expect(shared.keyterms).toHaveLength(190);
    expect(shared.leftOut).toHaveLength(15);
    // With the pro model alone there is room for all of them.
    expect(glossaryContribution(entries, { speech_models: ['universal-3-5-pro'] }).leftOut).toEqual([]);
    // Both models asked for: the smaller limit holds.
    expect(keytermLimit({})).toBe(200);
  });

  it('says why a spelling of more than six words cannot be a key term', () => {
    const result = glossaryContribution([entry('The Harbour and Ferry Authority of the North')]);
    expect(result.keyterms).toEqual([]);
    expect(result.notExpressible).toEqual([
      {
        term: 'The Harbour and Ferry Authority of the North',
        reason: 'A key term has at most 6 words; this one has 8.',
      },
    ]);
  });

  it('turns misheard forms into custom spelling, and names what its rules cannot express', () => {
    const result = glossaryContribution([
      entry('Brennan', ['Brenan', 'Bren Ann', 'Brennan'], 5),
      entry('Gull Island', ['Gul Island'], 4),
      entry('Ortiz', ['or tease', 'a very long misheard form here'], 3),
      entry('Brenham', ['brenan'], 2),
    ]);
    expect(result.customSpelling).toEqual([
      { from: ['Brenan', 'Bren Ann'], to: 'Brennan' },
      { from: ['or tease'], to: 'Ortiz' },
    ]);
    expect(result.notExpressible).toEqual([
      {
        term: 'Gull Island',
        reason:
          'Custom spelling can only write a single word, and “Gull Island” is 2 words: its misheard forms (Gul Island) are not replaced. Its spelling is still sent as a key term.',
      },
      {
        term: 'Ortiz',
        form: 'a very long misheard form here',
        reason: 'A misheard form has at most 5 words; this one has 6.',
      },
      {
        term: 'Brenham',
        form: 'brenan',
        reason: '“brenan” is already a misheard form of “Brennan”, which wins.',
      },
    ]);
    expect(result.keyterms).toEqual(['Brennan', 'Gull Island', 'Ortiz', 'Brenham']);
  });

  it('does not say a multi-word spelling goes as a key term when the limit left it out', () => {
    const many = Array.from({ length: 200 }, (_, index) => entry(`Name${index}`, [], 10));
    const result = glossaryContribution([...many, entry('Gull Island', ['Gul Island'], 1)], {
      speech_models: ['universal-2'],
    });
    expect(result.leftOut).toEqual(['Gull Island']);
    expect(result.notExpressible).toEqual([
      {
        term: 'Gull Island',
        reason:
          'Custom spelling can only write a single word, and “Gull Island” is 2 words: its misheard forms (Gul Island) are not replaced.',
      },
    ]);
  });

  it('never sends a form that is part of its spelling, and says why once, the spelling still a key term', () => {
    const result = glossaryContribution([
      entry('Al-Hassan', ['Hassan', 'Al Hasan'], 3),
      entry('Northwind Ferries', ['Northwind', 'North Wind'], 2),
    ]);
    expect(result.keyterms).toEqual(['Al-Hassan', 'Northwind Ferries']);
    expect(result.customSpelling).toEqual([{ from: ['Al Hasan'], to: 'Al-Hassan' }]);
    expect(result.notExpressible).toEqual([
      {
        term: 'Al-Hassan',
        reason:
          '“Hassan” is part of “Al-Hassan” itself: as a custom spelling it would have the service write the name twice wherever the recording says it right, so it is never sent. Apply glossary still fixes it where it stands alone. Its spelling is still sent as a key term.',
      },
      {
        term: 'Northwind Ferries',
        reason:
          '“Northwind” is part of “Northwind Ferries” itself: as a custom spelling it would have the service write the name twice wherever the recording says it right, so it is never sent. Apply glossary still fixes it where it stands alone. Custom spelling can only write a single word, and “Northwind Ferries” is 2 words: its misheard forms (North Wind) are not replaced. Its spelling is still sent as a key term.',
      },
    ]);
  });

  it('says what a spelling cannot send once, however many glossaries have it and whatever the reasons', () => {
    const inTwoGlossaries = glossaryContribution([
      entry('Gull Island', ['Gul Island'], 2),
      { ...entry('gull island', ['Gall Island'], 1), glossaryId: 2 },
    ]);
    expect(inTwoGlossaries.notExpressible).toEqual([
      {
        term: 'Gull Island',
        reason:
          'Custom spelling can only write a single word, and “Gull Island” is 2 words: its misheard forms (Gul Island, Gall Island) are not replaced. Its spelling is still sent as a key term.',
      },
    ]);
    const long = glossaryContribution([
      entry('The Greater Harbour Area Ferry Passenger Association', ['Harbour Association']),
    ]);
    expect(long.notExpressible).toEqual([
      {
        term: 'The Greater Harbour Area Ferry Passenger Association',
        reason:
          'A key term has at most 6 words; this one has 7. Custom spelling can only write a single word, and “The Greater Harbour Area Ferry Passenger Association” is 7 words: its misheard forms (Harbour Association) are not replaced.',
      },
    ]);
  });

  it('leaves a form the journalist spelled in the form itself to that spelling', () => {
    const result = glossaryContribution([entry('Brennan', ['Brenan', 'Brenin'])], {
      custom_spelling: [{ from: ['brenan'], to: 'Brannan' }],
    });
    expect(result.customSpelling).toEqual([{ from: ['Brenin'], to: 'Brennan' }]);
    expect(result.notExpressible[0]?.reason).toBe(
      '“Brenan” is already a misheard form of “Brannan”, which wins.',
    );
  });
});

describe('withGlossaries', () => {
  it('adds the contribution after the journalist’s own options, which the shared validator accepts', () => {
    const entries = [entry('Brennan', ['Brenan']), entry('Gull Island')];
    const options = { speaker_labels: true, keyterms_prompt: ['ferry'] };
    const merged = withGlossaries(options, glossaryContribution(entries, options));
    expect(merged).toEqual({
      speaker_labels: true,
      keyterms_prompt: ['ferry', 'Brennan', 'Gull Island'],
      custom_spelling: [{ from: ['Brenan'], to: 'Brennan' }],
    });
    expect(checkTranscriptionOptions(merged).ok).toBe(true);
    // Nothing to add leaves the options as they were.
    expect(withGlossaries({ punctuate: true }, glossaryContribution([]))).toEqual({ punctuate: true });
  });

  it('never makes options the validator refuses, at any size', () => {
    const entries = Array.from({ length: 1500 }, (_, i) =>
      entry(i % 7 === 0 ? 'one two three four five six seven' : `Term${i}`, [`misheard ${i}`], i),
    );
    for (const speech_models of [['universal-2'], ['universal-3-5-pro'], undefined] as const) {
      const options = speech_models ? { speech_models: [...speech_models] } : {};
      expect(
        checkTranscriptionOptions(withGlossaries(options, glossaryContribution(entries, options))).ok,
      ).toBe(true);
    }
  });
});
