import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Segment } from '../library';
import { planEdit, type PlanContext } from '../corrections/edit-plan';
import { applyStep } from '../corrections/sentence-changes';
import type { GlossaryEntry } from './glossary';
import { fixesIntent, proposeGlossaryFixes } from './glossary-fixes';

function sentence(position: number, text: string, startMs = position * 10_000): Segment {
  const words = text.split(' ').map((word, index) => ({
    text: word,
    start: startMs + index * 400,
    end: startMs + index * 400 + 350,
    confidence: 0.9,
  }));
  return {
    position,
    startMs,
    endMs: startMs + words.length * 400,
    speaker: 'A',
    confidence: 0.9,
    text,
    words,
  };
}

function entry(id: number, term: string, misheard: string[]): GlossaryEntry {
  return { id, glossaryId: 1, term, kind: 'person', misheard, note: '', usedAt: 0 };
}

const sentences = [
  sentence(0, 'Mayor Brenan opened the meeting.'),
  sentence(1, 'Brenan said brenan twice, Brenans once.'),
  sentence(2, 'The Bren Ann plan, by Ortis.'),
];
const entries = [entry(1, 'Brennan', ['Brenan', 'Bren Ann']), entry(2, 'Ortiz', ['ortis', 'Ortiz'])];
const context: PlanContext = {
  paragraphs: () => [],
  machineSentences: () => [],
  speakerLabel: () => 'A',
  speakerName: () => 'Speaker A',
};

describe('proposeGlossaryFixes', () => {
  it('finds every whole-word misheard form, ignoring case, in reading order, with its context and time', () => {
    const proposals = proposeGlossaryFixes(sentences, entries);
    expect(proposals.map((p) => [p.position, p.occurrence, p.match, p.replacement])).toEqual([
      [0, 0, 'Brenan', 'Brennan'],
      [1, 0, 'Brenan', 'Brennan'],
      [1, 1, 'brenan', 'Brennan'],
      [2, 0, 'Bren Ann', 'Brennan'],
      [2, 0, 'Ortis', 'Ortiz'],
    ]);
    expect(proposals[0]).toMatchObject({ before: 'Mayor ', after: ' opened the meeting.', startMs: 400 });
    expect(proposals[2]).toMatchObject({ startMs: 10_000 + 2 * 400, before: 'Brenan said ' });
    expect(proposeGlossaryFixes([sentence(0, 'Ortiz and Brennan.')], entries)).toEqual([]);
  });

  it('gives fixes the correction planner applies exactly where they were found, as one step', () => {
    const proposals = proposeGlossaryFixes(sentences, entries);
    // The journalist leaves out the second one of sentence 1.
    const accepted = proposals.filter((p) => !(p.position === 1 && p.occurrence === 1));
    const plan = planEdit(sentences, fixesIntent(accepted), context);
    expect(plan.summary).toBe('Fixed 4 spellings from the glossary');
    const after = new Map(
      plan.step.map((change) => [change.position, change.inserted.map((s) => s.text).join(' ')]),
    );
    expect(after.get(0)).toBe('Mayor Brennan opened the meeting.');
    expect(after.get(1)).toBe('Brennan said brenan twice, Brenans once.');
    expect(after.get(2)).toBe('The Brennan plan, by Ortiz.');
    // The unchanged words keep their times.
    const opened = plan.step[0]!.inserted[0]!.words.find((word) => word.text === 'opened');
    expect(opened).toMatchObject({ start: 800, end: 1150 });
  });
});

describe('a fix is never proposed where it would write a name twice', () => {
  const northwind = entry(1, 'Northwind Ferries', ['Northwind']);
  const found = (text: string, glossary: GlossaryEntry[]): string[] =>
    proposeGlossaryFixes([sentence(0, text)], glossary).map((p) => `${p.match}→${p.replacement}`);

  it('leaves the text that already reads the spelling, or more of it, and fixes the form on its own', () => {
    expect(found('The council awarded Northwind Ferries a deal.', [northwind])).toEqual([]);
    expect(found('the council awarded northwind ferries a deal.', [northwind])).toEqual([]);
    expect(found('Northwind Ferries Group won.', [northwind])).toEqual([]);
    expect(found('Well, Northwind offered the best price.', [northwind])).toEqual([
      'Northwind→Northwind Ferries',
    ]);
    // The form is the end of the spelling, or a part of a hyphenated one.
    expect(found('Northwind Ferries won.', [entry(2, 'Northwind Ferries', ['Ferries'])])).toEqual([]);
    const hassan = entry(3, 'Al-Hassan', ['Hassan']);
    expect(found('Mayor Al-Hassan spoke.', [hassan])).toEqual([]);
    expect(found('Mayor Hassan spoke.', [hassan])).toEqual(['Hassan→Al-Hassan']);
  });

  it("leaves the text that reads another entry's spelling", () => {
    const air = entry(4, 'Northwind Air', []);
    expect(found('They flew Northwind Air.', [northwind, air])).toEqual([]);
  });

  it('leaves a form beside the rest of the spelling, and two forms side by side, unless said twice', () => {
    expect(found('Anne Smith said so.', [entry(5, 'Ann Smith', ['Anne'])])).toEqual([]);
    const brennan = entry(6, 'Brennan', ['Bren', 'Brenan']);
    expect(found('I told Bren Brenan so.', [brennan])).toEqual([]);
    expect(found('I told Bren Brennan so.', [brennan])).toEqual([]);
    // The speaker said the name twice: each is fixed.
    expect(found('Brenan, Brenan, listen.', [brennan])).toEqual(['Brenan→Brennan', 'Brenan→Brennan']);
  });
});

/** The sentences after every proposal of the glossary is applied, as the reader applies them. */
function applied(current: readonly Segment[], glossary: readonly GlossaryEntry[]): Segment[] {
  const proposals = proposeGlossaryFixes(current, glossary);
  if (proposals.length === 0) return [...current];
  return applyStep(current, planEdit(current, fixesIntent(proposals), context).step);
}

/** Words as the glossary compares them: runs of letters and digits, ignoring case. */
const wordsOf = (text: string): string[] =>
  (text.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase());

function isPartOf(run: readonly string[], words: readonly string[]): boolean {
  return words.some((_, at) => run.every((word, index) => words[at + index] === word));
}

/** A word run said twice in a row where the run is (part of) one of these: "ferries ferries". */
function doubledRun(text: string, runs: readonly (readonly string[])[]): string | undefined {
  const words = wordsOf(text);
  for (let length = 1; 2 * length <= words.length; length++)
    for (let at = 0; at + 2 * length <= words.length; at++) {
      const one = words.slice(at, at + length);
      const two = words.slice(at + length, at + 2 * length);
      if (one.every((word, index) => word === two[index]) && runs.some((run) => isPartOf(one, run)))
        return [...one, ...two].join(' ');
    }
  return undefined;
}

describe('applying a glossary (property)', () => {
  const names = ['Northwind', 'Ferries', 'Brennan', 'Bren', 'Ann', 'Al', 'Hassan', 'Port', 'Hollow'];
  const fillers = ['the', 'said', 'council', 'boats', 'today'];
  const spelling = fc
    .uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 3 })
    .chain((words) =>
      fc
        .array(fc.constantFrom(' ', '-'), { minLength: words.length - 1, maxLength: words.length - 1 })
        .map((gaps) =>
          words.map((word, index) => (index === 0 ? word : `${gaps[index - 1]}${word}`)).join(''),
        ),
    );
  // Misheard forms: a part of the spelling (the class of "Northwind" for "Northwind Ferries"),
  // another name, or the spelling in small letters.
  const glossaryEntry = spelling.chain((term) => {
    const words = term.split(/[ -]/);
    const part = fc
      .tuple(fc.nat(words.length - 1), fc.nat(words.length - 1))
      .map(([a, b]) => words.slice(Math.min(a, b), Math.max(a, b) + 1).join(' '));
    const form = fc.oneof(part, fc.constantFrom(...names), fc.constant(term.toLowerCase()));
    return fc.array(form, { minLength: 1, maxLength: 3 }).map((misheard) => ({ term, misheard }));
  });
  const glossary = fc
    .uniqueArray(glossaryEntry, { minLength: 1, maxLength: 3, selector: (e) => wordsOf(e.term).join(' ') })
    .map((made) => made.map((made, index) => entry(index + 1, made.term, made.misheard)));

  const sentencesFor = (made: readonly GlossaryEntry[]) => {
    // Mostly the glossary's own words, where the seams are.
    const piece = fc.oneof(
      { arbitrary: fc.constantFrom(...names, ...fillers), weight: 2 },
      { arbitrary: fc.constantFrom(...made.map((e) => e.term)), weight: 2 },
      { arbitrary: fc.constantFrom(...made.flatMap((e) => e.misheard)), weight: 3 },
    );
    const word = fc
      .tuple(piece, fc.boolean(), fc.constantFrom('', '', ',', '.'))
      .map(([text, lower, mark]) => `${lower ? text.toLowerCase() : text}${mark}`);
    return fc.array(
      fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(' ')),
      { minLength: 1, maxLength: 3 },
    );
  };
  const spelledRuns = (made: readonly GlossaryEntry[]) => made.map((e) => wordsOf(e.term));
  const formRuns = (made: readonly GlossaryEntry[]) => made.flatMap((e) => e.misheard.map(wordsOf));

  // The texts say no name (or misheard form) twice in a row: any such run after is the fix's.
  const cases = glossary.chain((made) =>
    sentencesFor(made)
      .filter((texts) =>
        texts.every((text) => doubledRun(text, [...spelledRuns(made), ...formRuns(made)]) === undefined),
      )
      .map((texts) => ({ made, texts })),
  );

  it('applying the same glossary twice changes nothing the second time, and never writes a name twice', () => {
    fc.assert(
      fc.property(cases, ({ made, texts }) => {
        const before = texts.map((text, position) => sentence(position, text));
        const once = applied(before, made);
        for (const fixed of once)
          expect(doubledRun(fixed.text, spelledRuns(made)), fixed.text).toBeUndefined();
        expect(proposeGlossaryFixes(once, made)).toEqual([]);
        expect(applied(once, made).map((s) => s.text)).toEqual(once.map((s) => s.text));
      }),
      { numRuns: 300 },
    );
  });
});
