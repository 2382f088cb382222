import { describe, expect, it } from 'vitest';
import { copyIsNotDeleted, mayNotChange, syncReportSentences } from './newsroom-glossary';

const nothing = { sent: 0, proposalsSent: 0, changes: [], conflicts: [], newCopies: [] };

describe('newsroom glossaries in words', () => {
  it('says who may change a copy and what to do instead, for a desk and for the whole newsroom', () => {
    expect(mayNotChange({ name: 'City names', owner: 'ana', desk: 'City' })).toBe(
      'Only ana and the editors of City change “City names”; propose the entry instead, and they decide whether it goes in.',
    );
    expect(mayNotChange({ name: 'Style', owner: 'cleo', desk: null })).toBe(
      "Only cleo and the newsroom's editors change “Style”; propose the entry instead, and they decide whether it goes in.",
    );
  });

  it('says why a copy is not deleted and how to stop using it', () => {
    expect(copyIsNotDeleted({ name: 'Style', desk: null })).toBe(
      "“Style” is the newsroom's glossary, shared with the whole newsroom: untick “Use by default” to stop using it.",
    );
  });

  it('says what a sync did, leaves the conflicts to be said apart, and is up to date only when nothing happened', () => {
    expect(syncReportSentences(nothing)).toEqual(['Your newsroom glossaries are up to date.']);
    expect(
      syncReportSentences({
        ...nothing,
        sent: 1,
        proposalsSent: 2,
        newCopies: ['City names'],
        changes: ['cleo added “Brennan” to “City names”.'],
        conflicts: ['Your change to “Okonkwo” … was not applied.'],
      }),
    ).toEqual([
      'Sent 1 change and 2 proposals.',
      'New in your library: “City names”, used for every new transcription.',
      'cleo added “Brennan” to “City names”.',
    ]);
    expect(syncReportSentences({ ...nothing, conflicts: ['Your change … was not applied.'] })).toEqual([]);
  });
});
