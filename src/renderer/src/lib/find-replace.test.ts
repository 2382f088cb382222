import { describe, expect, it } from 'vitest';
import type { EditIntent } from '../../../shared/corrections/corrections';
import { planEdit, type PlanContext } from '../../../shared/corrections/edit-plan';
import { applyStep } from '../../../shared/corrections/sentence-changes';
import type { Segment } from '../../../shared/library';
import {
  matchAfterReplace,
  replaceIntent,
  replacedMessage,
  sentenceMatches,
  type FindOptions,
} from './find-replace';
import { buildModel } from './reader-model';

function sentence(position: number, speaker: string, text: string, startMs: number): Segment {
  const words = text.split(' ').map((word, i) => ({
    text: word,
    start: startMs + i * 400,
    end: startMs + i * 400 + 300,
    confidence: 0.9,
  }));
  return {
    position,
    startMs,
    endMs: words.at(-1)!.end,
    speaker,
    confidence: 0.9,
    text,
    words,
  };
}

// A misheard name in every form find must tell apart: capitals, a possessive, inside a longer
// word, twice in one sentence, and a phrase that runs across a sentence boundary.
const sentences: Segment[] = [
  sentence(0, 'A', 'Good morning, I am with Mayor Brenan today.', 0),
  sentence(1, 'A', "brenan said BRENAN's plan was Brenanville's pride.", 4000),
  sentence(2, 'B', 'The ferry to Port Hollow. Hollow is the harbour and Brenan Brenan again.', 8000),
  sentence(3, 'B', 'Port', 14000),
  sentence(4, 'B', 'Hollow welcomes you.', 15000),
];
const model = buildModel(sentences, []);

// A find and replace reads nothing of the context (paragraphs, speakers): planEdit uses it for
// other kinds of edit.
const context = {} as PlanContext;

function mainReplaces(intent: EditIntent): { replaced: number; after: Segment[] } {
  const plan = planEdit(sentences, intent, context);
  return { replaced: plan.replaced, after: applyStep(sentences, plan.step) };
}

const shown = (segment: Segment): string => segment.words.map((word) => word.text).join(' ');

const cases: [string, FindOptions][] = [
  ['Brenan', { wholeWord: false, matchCase: false }],
  ['Brenan', { wholeWord: true, matchCase: false }],
  ['Brenan', { wholeWord: false, matchCase: true }],
  ['Brenan', { wholeWord: true, matchCase: true }],
  ['brenan', { wholeWord: true, matchCase: true }],
  ['Port Hollow', { wholeWord: false, matchCase: false }],
  ['hollow', { wholeWord: true, matchCase: false }],
  ['  Brenan ', { wholeWord: false, matchCase: false }],
];

describe('find matches as main replaces them', () => {
  it.each(cases)('"%s" %o: the count is what Replace all replaces', (query, options) => {
    const matches = sentenceMatches(sentences, model, query, options);
    const { replaced } = mainReplaces(replaceIntent(query, 'X', options));
    expect(matches.length).toBe(replaced);
    expect(matches.length).toBeGreaterThan(0);
  });

  it('tells whole words and case apart', () => {
    const count = (query: string, options: FindOptions): number =>
      sentenceMatches(sentences, model, query, options).length;
    // Brenan, brenan, BRENAN('s), Brenan(ville's), Brenan, Brenan.
    expect(count('Brenan', { wholeWord: false, matchCase: false })).toBe(6);
    // Not inside "Brenanville's"; a possessive is still the word.
    expect(count('Brenan', { wholeWord: true, matchCase: false })).toBe(5);
    expect(count('Brenan', { wholeWord: false, matchCase: true })).toBe(4);
    expect(count('Brenan', { wholeWord: true, matchCase: true })).toBe(3);
    expect(count('BRENAN', { wholeWord: true, matchCase: true })).toBe(1);
  });

  it.each(cases)('"%s" %o: replacing one match changes that occurrence and no other', (query, options) => {
    const matches = sentenceMatches(sentences, model, query, options);
    for (const match of matches) {
      const { replaced, after } = mainReplaces(replaceIntent(query, 'Brennan', options, match));
      expect(replaced).toBe(1);
      const before = shown(sentences[match.position]!);
      const expected = `${before.slice(0, match.start)}Brennan${before.slice(match.end)}`;
      expect(shown(after[match.position]!)).toBe(expected);
      // Every other sentence is untouched.
      after.forEach((segment, position) => {
        if (position !== match.position) expect(shown(segment)).toBe(shown(sentences[position]!));
      });
    }
  });

  it('points each match at the reader words it covers, in their turn', () => {
    const matches = sentenceMatches(sentences, model, 'Port Hollow', {
      wholeWord: false,
      matchCase: false,
    });
    // Only inside one sentence: "Port" and "Hollow" in sentences 3 and 4 cannot be replaced as one.
    expect(matches).toHaveLength(1);
    const words = model.turns.flatMap((turn) => turn.words);
    expect(matches[0]!.words.map((index) => words[index]!.text)).toEqual(['Port', 'Hollow.']);
    expect(matches[0]!.turn).toBe(model.turnOf[matches[0]!.words[0]!]);
    expect(matches[0]).toMatchObject({ position: 2, occurrence: 0 });

    const twice = sentenceMatches(sentences, model, 'brenan brenan', { wholeWord: true, matchCase: false });
    expect(twice.map((match) => match.words.map((index) => words[index]!.text))).toEqual([
      ['Brenan', 'Brenan'],
    ]);
    // The second Brenan of sentence 2 is its second occurrence, as main counts for `at`.
    const inTwo = sentenceMatches(sentences, model, 'Brenan', { wholeWord: true, matchCase: true }).filter(
      (match) => match.position === 2,
    );
    expect(inTwo.map((match) => match.occurrence)).toEqual([0, 1]);
  });

  it('finds nothing for an empty or blank query', () => {
    expect(sentenceMatches(sentences, model, '', { wholeWord: false, matchCase: false })).toEqual([]);
    expect(sentenceMatches(sentences, model, '   ', { wholeWord: true, matchCase: false })).toEqual([]);
  });

  it('treats the query as text, not as an expression', () => {
    expect(
      sentenceMatches(sentences, model, 'morning,', { wholeWord: false, matchCase: false }),
    ).toHaveLength(1);
    expect(sentenceMatches(sentences, model, 'Hollow.', { wholeWord: false, matchCase: false })).toHaveLength(
      1,
    );
    expect(sentenceMatches(sentences, model, '.*', { wholeWord: false, matchCase: false })).toHaveLength(0);
  });

  it('sends one match with `at`, and every match without it', () => {
    const options = { wholeWord: true, matchCase: false };
    expect(replaceIntent('Brenan', 'Brennan', options, { position: 2, occurrence: 1 })).toEqual({
      kind: 'replace',
      find: 'Brenan',
      replacement: 'Brennan',
      wholeWord: true,
      matchCase: false,
      at: { position: 2, occurrence: 1 },
    });
    expect(replaceIntent('Brenan', 'Brennan', options)).not.toHaveProperty('at');
  });
});

describe('after a replace', () => {
  it('goes to the match after the replaced words, even when the replacement contains the query', () => {
    const options = { wholeWord: false, matchCase: false };
    const before = sentenceMatches(sentences, model, 'Brenan', options);
    const replaced = before[0]!;
    const { after } = mainReplaces(replaceIntent('Brenan', 'Brenann', options, replaced));
    const again = sentenceMatches(after, buildModel(after, []), 'Brenan', options);
    // "Brenann" still contains "Brenan": it is found, but the next one shown is the one after it.
    expect(again).toHaveLength(before.length);
    const next = matchAfterReplace(again, replaced, 'Brenann'.length);
    expect(again[next]).toMatchObject({ position: 1, occurrence: 0 });
  });

  it('wraps to the first match, and answers -1 when none is left', () => {
    const matches = [
      { position: 0, start: 3 },
      { position: 4, start: 0 },
    ];
    expect(matchAfterReplace(matches, { position: 4, start: 0 }, 5)).toBe(0);
    expect(matchAfterReplace(matches, { position: 0, start: 3 }, 5)).toBe(1);
    expect(matchAfterReplace([], { position: 0, start: 0 }, 5)).toBe(-1);
  });

  it('says how many were replaced and how to undo', () => {
    expect(replacedMessage(12, 'Ctrl+Z')).toBe('Replaced 12 occurrences — Undo with Ctrl+Z');
    expect(replacedMessage(1, '⌘Z')).toBe('Replaced 1 occurrence — Undo with ⌘Z');
    expect(replacedMessage(1500, 'Ctrl+Z')).toBe('Replaced 1,500 occurrences — Undo with Ctrl+Z');
    expect(replacedMessage(0, 'Ctrl+Z')).toMatch(/Nothing was replaced/);
  });
});

describe('an empty query', () => {
  it('finds the same empty list for any transcript, so a correction re-checks no word on screen for it', () => {
    const options = { wholeWord: false, matchCase: false };
    const nothing = sentenceMatches(sentences, model, '', options);
    expect(nothing).toEqual([]);
    const corrected = sentences.slice(1);
    expect(sentenceMatches(corrected, buildModel(corrected, []), '  ', options)).toBe(nothing);
  });
});
