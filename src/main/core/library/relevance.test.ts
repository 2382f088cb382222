import { describe, expect, it } from 'vitest';
import { queryTerms } from './fts-query';
import { scoreSentences } from './relevance';

const rows = [
  { id: 1, text: 'The mayor said the mayor' },
  { id: 2, text: 'A mayor' },
  { id: 3, text: 'The council and the mayor of the port, then the harbour' },
  { id: 4, text: 'Álvarez, mayor of Port Hollow' },
];

function order(query: string, counts: Record<string, number>): number[] {
  return scoreSentences(rows, queryTerms(query), new Map(Object.entries(counts)), 1000)
    .sort((a, b) => a.rank - b.rank || a.id - b.id)
    .map((scored) => scored.id);
}

describe('scoring matches by relevance without bm25()', () => {
  it('ranks a word said often in few words first, a long sentence last, as BM25 does', () => {
    expect(order('mayor ', { mayor: 4 })).toEqual([1, 2, 4, 3]);
  });

  it('weighs a rare word above a common one, folds case and accents, and counts a prefix', () => {
    // "alvarez" is rare (1 sentence), "the" common: the sentence with the rare word wins.
    expect(order('alvarez the ', { alvarez: 1, the: 900 })[0]).toBe(4);
    expect(order('harb', { 'harb*': 1 })[0]).toBe(3);
    const [best] = scoreSentences(rows, queryTerms('nothing '), new Map([['nothing', 1]]), 1000).sort(
      (a, b) => a.rank - b.rank,
    );
    expect(best!.rank).toBe(-0);
  });
});
