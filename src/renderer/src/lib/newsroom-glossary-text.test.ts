import { describe, expect, it } from 'vitest';
import {
  changeRefusal,
  newsroomEntrySentence,
  proposalsHeading,
  sharedLine,
  waitingLine,
} from './newsroom-glossary-text';

describe("a newsroom glossary's copy in words", () => {
  it('says where it is shared, whose it is and who changes it', () => {
    expect(sharedLine({ desk: 'City', owner: 'ana', mayChange: true })).toBe(
      'Shared with City · owner ana · you may change it',
    );
    expect(sharedLine({ desk: 'City', owner: 'ana', mayChange: false })).toBe(
      'Shared with City · owner ana · editors and ana change it',
    );
    expect(sharedLine({ desk: null, owner: 'cleo', mayChange: false })).toBe(
      'Shared with the whole newsroom · owner cleo · editors and cleo change it',
    );
  });

  it('counts what waits, and says nothing when nothing does', () => {
    expect(waitingLine(0)).toBeUndefined();
    expect(waitingLine(1)).toBe('1 change waits to be sent');
    expect(waitingLine(3)).toBe('3 changes wait to be sent');
  });

  it('says whether an entry was added or proposed, and to whom', () => {
    const cityNames = { name: 'City names', newsroom: { desk: 'City', owner: 'ana' } };
    expect(newsroomEntrySentence('Brennan', cityNames, true)).toBe(
      'Proposed “Brennan” to ana and the editors of City: they decide whether it goes in.',
    );
    expect(newsroomEntrySentence('Brennan', cityNames, false)).toBe(
      'Added “Brennan” to “City names”, shared with City.',
    );
  });

  it('counts proposals', () => {
    expect(proposalsHeading(1)).toBe('1 proposal');
    expect(proposalsHeading(2)).toBe('2 proposals');
  });

  it('refuses changes only on a copy the reporter may not change, saying who may', () => {
    const status = { id: 'u', desk: 'City', owner: 'ana', waiting: 0 };
    expect(changeRefusal({ name: 'Mine', newsroom: undefined })).toBeUndefined();
    expect(changeRefusal({ name: 'City names', newsroom: { ...status, mayChange: true } })).toBeUndefined();
    expect(changeRefusal({ name: 'City names', newsroom: { ...status, mayChange: false } })).toBe(
      'Only ana and the editors of City change “City names”; propose the entry instead, and they decide whether it goes in.',
    );
  });
});
