import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spokenToolResult } from './spoken-result';

/** JSON values whose texts are plain words: any JSON punctuation in what is said came from the JSON. */
const plainJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.stringMatching(/^[A-Za-z][a-z ]{0,10}$/),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{0,8}$/), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('a tool result as the emulated agents say it', () => {
  it('never says JSON, whatever JSON the tool sent', () => {
    fc.assert(
      fc.property(plainJson, (value) => {
        const said = spokenToolResult(JSON.stringify(value));
        expect(said).not.toMatch(/[{}[\]"]|\w:\S/);
        expect(said.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('says plain text as it is, an error as its sentence, and unreadable JSON as unreadable', () => {
    expect(spokenToolResult('Sunny and 70 degrees')).toBe('Sunny and 70 degrees');
    expect(spokenToolResult('{"error":"There is no story called Ferry."}')).toBe(
      'There is no story called Ferry.',
    );
    expect(spokenToolResult('{"quotes": [')).toBe('an answer I could not read');
    expect(spokenToolResult('{}')).toBe('nothing');
  });

  it('reads what a reporter needs, counts lists, and leaves out ids and millisecond times', () => {
    const transcripts = ['Budget', 'Ferry', 'Harbour', 'Council'].map((title, index) => ({
      id: `t${index}`,
      title,
      speakers: index === 0 ? [] : ['Mayor Jones'],
    }));
    expect(spokenToolResult(JSON.stringify({ transcripts }))).toBe(
      '4 transcripts: Budget, no speakers; Ferry, 1 speaker: Mayor Jones; Harbour, 1 speaker: Mayor Jones; and 1 more',
    );
    expect(
      spokenToolResult(
        JSON.stringify({ story: 'Ferry', created_story: false, quotes_in_story: 3, added: { start_ms: 5 } }),
      ),
    ).toBe('Ferry, created story no, quotes in story 3');
  });
});
