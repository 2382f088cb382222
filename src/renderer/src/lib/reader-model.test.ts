import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Segment } from '../../../shared/library';
import {
  buildModel,
  clock,
  findMatches,
  isVideo,
  quoteText,
  speakerName,
  turnAt,
  unredactedByStart,
  wordAt,
  wordAtOffset,
} from './reader-model';

function segment(position: number, speaker: string | null, words: [string, number, number?][]): Segment {
  const built = words.map(([text, start, confidence = 0.95]) => ({
    text,
    start,
    end: start + 300,
    confidence,
  }));
  return {
    position,
    startMs: built[0]?.start ?? 0,
    endMs: (built.at(-1)?.end ?? 0) + 0,
    speaker,
    confidence: 0.9,
    text: built.map((word) => word.text).join(' '),
    words: built,
  };
}

const sentences = [
  segment(0, 'A', [
    ['Good', 0],
    ['morning.', 400],
  ]),
  segment(1, 'A', [
    ['Thanks', 900],
    ['for', 1300],
    ['coming.', 1600],
  ]),
  segment(2, 'B', [
    ['The', 2500],
    ['ferry', 2900, 0.4],
    ['contract.', 3300],
  ]),
  segment(3, 'A', [
    ['The', 4000],
    ['FERRY?', 4300],
  ]),
];

describe('buildModel', () => {
  it('groups consecutive sentences of one speaker into a turn and numbers every word', () => {
    const model = buildModel(sentences, []);
    expect(model.hasSpeakers).toBe(true);
    expect(model.turns.map((turn) => turn.speaker)).toEqual(['A', 'B', 'A']);
    expect(model.turns[0]?.text).toBe('Good morning. Thanks for coming.');
    expect(model.turns[0]?.startMs).toBe(0);
    expect(model.turns[0]?.endMs).toBe(1900);
    expect(model.turns[2]?.words.map((word) => word.index)).toEqual([8, 9]);
    expect([...model.starts]).toEqual([0, 400, 900, 1300, 1600, 2500, 2900, 3300, 4000, 4300]);
    expect([...model.turnOf]).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 2, 2]);
  });

  it('uses paragraphs as blocks when there are no speakers, with the words of their sentences', () => {
    const plain = sentences.map((sentence) => ({ ...sentence, speaker: null }));
    // Paragraphs arrive without words: only their time spans matter.
    const paragraphs = [
      { ...segment(0, null, [['x', 0]]), startMs: 0, endMs: 2000, words: [] },
      { ...segment(1, null, [['y', 2000]]), startMs: 2000, endMs: 99_000, words: [] },
    ];
    const model = buildModel(plain, paragraphs);
    expect(model.hasSpeakers).toBe(false);
    expect(model.turns).toHaveLength(2);
    expect(model.turns[0]?.text).toBe('Good morning. Thanks for coming.');
    expect(model.turns.flatMap((turn) => turn.words).length).toBe(plain.flatMap((s) => s.words).length);
  });
});

describe('the opening: the first sentences painted while the whole transcript loads', () => {
  // What `transcripts.opening` sends: the first sentences, and the paragraphs starting before the last ends.
  const transcripts = fc
    .record({
      speakers: fc.boolean(),
      sentences: fc.array(
        fc.record({ speaker: fc.constantFrom('A', 'B'), words: fc.integer({ min: 0, max: 4 }) }),
        { maxLength: 25 },
      ),
      paragraphEvery: fc.integer({ min: 1, max: 6 }),
    })
    .map(({ speakers, sentences: shapes, paragraphEvery }) => {
      let at = 0;
      const built = shapes.map(({ speaker, words }, position) => {
        const times = Array.from({ length: words }, (): [string, number] => [`w${position}`, (at += 500)]);
        at += 700;
        const made = segment(position, speakers ? speaker : null, times);
        return words === 0 ? { ...made, startMs: at - 700, endMs: at - 400 } : made;
      });
      const paragraphs: Segment[] = [];
      for (let first = 0; first < built.length; first += paragraphEvery) {
        const group = built.slice(first, first + paragraphEvery);
        paragraphs.push({
          ...segment(paragraphs.length, null, []),
          startMs: group[0]!.startMs,
          endMs: group.at(-1)!.endMs,
        });
      }
      return { sentences: built, paragraphs };
    });

  it('draws every turn it shows as the whole transcript will, the last one cut short at most', () => {
    fc.assert(
      fc.property(transcripts, fc.integer({ min: 1, max: 30 }), ({ sentences, paragraphs }, limit) => {
        const first = sentences.slice(0, limit);
        const lastEnd = first.at(-1)?.endMs ?? -1;
        const opening = buildModel(
          first,
          paragraphs.filter((paragraph) => paragraph.startMs < lastEnd),
        );
        const whole = buildModel(sentences, paragraphs);
        const shown = opening.turns.length;
        expect(whole.turns.length).toBeGreaterThanOrEqual(shown);
        expect(opening.turns.slice(0, -1)).toEqual(whole.turns.slice(0, shown - 1));
        const cut = opening.turns.at(-1);
        if (cut) {
          const full = whole.turns[shown - 1]!;
          expect(cut).toMatchObject({
            index: full.index,
            speaker: full.speaker,
            firstSentence: full.firstSentence,
          });
          expect(full.words.slice(0, cut.words.length)).toEqual(cut.words);
        }
        expect(Array.from(opening.starts)).toEqual(Array.from(whole.starts.slice(0, opening.starts.length)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('wordAt and turnAt', () => {
  const model = buildModel(sentences, []);
  it('finds the last word started at a moment by binary search', () => {
    expect(wordAt(model.starts, -1)).toBe(-1);
    expect(wordAt(model.starts, 0)).toBe(0);
    expect(wordAt(model.starts, 2899)).toBe(5);
    expect(wordAt(model.starts, 2900)).toBe(6);
    expect(wordAt(model.starts, 99_999)).toBe(9);
    expect(wordAt(new Float64Array(0), 10)).toBe(-1);
  });
  it('maps a moment to its turn', () => {
    expect(turnAt(model, 0)).toBe(0);
    expect(turnAt(model, 3000)).toBe(1);
    expect(turnAt(model, 5000)).toBe(2);
  });
});

describe('findMatches', () => {
  const model = buildModel(sentences, []);
  it('finds case-insensitive matches in reading order, with the words they cover', () => {
    expect(findMatches(model.turns, 'ferry')).toEqual([
      { turn: 1, words: [6] },
      { turn: 2, words: [9] },
    ]);
    expect(findMatches(model.turns, 'for coming')).toEqual([{ turn: 0, words: [3, 4] }]);
    expect(findMatches(model.turns, '  ')).toEqual([]);
    expect(findMatches(model.turns, 'nowhere')).toEqual([]);
  });
});

describe('names, clock and quotes', () => {
  it('shows a speaker by name once renamed, else by label', () => {
    const speakers = [
      { label: 'A', name: null },
      { label: 'B', name: 'Mayor Elena Alvarez' },
    ];
    expect(speakerName('A', speakers)).toBe('Speaker A');
    expect(speakerName('B', speakers)).toBe('Mayor Elena Alvarez');
    expect(speakerName(null, speakers)).toBe('Unknown speaker');
  });
  it('formats hh:mm:ss', () => {
    expect(clock(0)).toBe('00:00:00');
    expect(clock(83_500)).toBe('00:01:23');
    expect(clock(3 * 3600_000 + 61_000)).toBe('03:01:01');
  });
});

describe('unredactedByStart and isVideo', () => {
  it('maps unredacted words by their start', () => {
    expect(unredactedByStart(null)).toBeNull();
    expect(unredactedByStart({ unredacted_words: [] })).toBeNull();
    const map = unredactedByStart({ unredacted_words: [{ text: 'Elena', start: 10 }, { bad: true }] });
    expect(map?.get(10)).toBe('Elena');
    expect(map?.size).toBe(1);
  });
  it('tells video files from audio', () => {
    expect(isVideo('/x/interview.MP4')).toBe(true);
    expect(isVideo('/x/interview.wav')).toBe(false);
    expect(isVideo(null)).toBe(false);
  });
});

describe('quoteText', () => {
  // The emulator's interview as the service returns it with the phone number and email redacted
  // and the unredacted words kept (test/fixtures/manifest.json).
  const said: [string, string, number][] = [
    ['If', 'If', 55_000],
    ['listeners', 'listeners', 55_400],
    ['have', 'have', 55_800],
    ['questions?', 'questions?', 56_200],
  ];
  const redacted: [string, string, number][] = [
    ['They', 'They', 59_500],
    ['can', 'can', 59_900],
    ['call', 'call', 60_300],
    ['[PHONE_NUMBER]', '555-0142', 60_650],
    ['or', 'or', 61_400],
    ['write', 'write', 61_800],
    ['to', 'to', 62_000],
    ['[EMAIL_ADDRESS].', 'mayor@porthollow.gov.', 62_346],
  ];
  const model = buildModel(
    [
      segment(
        0,
        'A',
        said.map(([text, , start]) => [text, start]),
      ),
      segment(
        1,
        'B',
        redacted.map(([text, , start]) => [text, start]),
      ),
    ],
    [],
  );
  const transcript = {
    unredacted_words: [...said, ...redacted].map(([, text, start]) => ({ text, start, end: start + 300 })),
  };

  it('quotes the selected words redacted, across turns, without what the page shows between them', () => {
    expect(quoteText(model, 2, 11, transcript, 'redacted')).toBe(
      'have questions? They can call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].',
    );
  });

  it('quotes the original words only when they are shown and the service kept them', () => {
    expect(quoteText(model, 11, 6, transcript, 'original')).toBe(
      'call 555-0142 or write to mayor@porthollow.gov.',
    );
    expect(quoteText(model, 6, 11, {}, 'original')).toBe('call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].');
  });
});

describe('the sentences each turn covers (what retyping it replaces)', () => {
  it('gives each turn its first sentence and count, and each word its sentence and place in it', () => {
    const model = buildModel(sentences, []);
    expect(model.turns.map((turn) => [turn.firstSentence, turn.sentenceCount])).toEqual([
      [0, 2],
      [2, 1],
      [3, 1],
    ]);
    expect(model.turns[0]?.words.map((word) => [word.text, word.sentence, word.inSentence])).toEqual([
      ['Good', 0, 0],
      ['morning.', 0, 1],
      ['Thanks', 1, 0],
      ['for', 1, 1],
      ['coming.', 1, 2],
    ]);
  });

  it('counts sentences without words in their turn, so retyping it replaces them too', () => {
    const empty = { ...segment(1, 'A', []), startMs: 800, endMs: 850 };
    const model = buildModel([sentences[0]!, empty, { ...sentences[2]!, position: 2 }], []);
    expect(model.turns.map((turn) => [turn.firstSentence, turn.sentenceCount])).toEqual([
      [0, 2],
      [2, 1],
    ]);
  });

  it('covers the sentences of each paragraph when there are no speakers', () => {
    const plain = sentences.map((sentence) => ({ ...sentence, speaker: null }));
    const paragraphs = [
      { ...plain[0]!, startMs: 0, endMs: 2000 },
      { ...plain[2]!, startMs: 2000, endMs: 5000 },
    ];
    const model = buildModel(plain, paragraphs);
    expect(model.turns.map((turn) => [turn.firstSentence, turn.sentenceCount])).toEqual([
      [0, 2],
      [2, 2],
    ]);
  });

  it('marks corrected words, which are no longer doubtful however low the service scored them', () => {
    const corrected = segment(0, 'A', [['Brennan', 0, 0.2]]);
    corrected.words[0]!.corrected = true;
    const model = buildModel([corrected, { ...sentences[2]!, position: 1 }], []);
    expect(model.turns[0]?.words[0]?.corrected).toBe(true);
    expect(model.turns[1]?.words.map((word) => word.corrected)).toEqual([false, false, false]);
  });

  it('finds the word a caret offset falls in, a space counting for the word before it', () => {
    const turn = buildModel(sentences, []).turns[0]!;
    // "Good morning. Thanks for coming."
    expect(wordAtOffset(turn, 0)?.text).toBe('Good');
    expect(wordAtOffset(turn, 4)?.text).toBe('Good');
    expect(wordAtOffset(turn, 5)?.text).toBe('morning.');
    expect(wordAtOffset(turn, 14)?.text).toBe('Thanks');
    expect(wordAtOffset(turn, 999)?.text).toBe('coming.');
  });
});
