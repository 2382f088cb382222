import { describe, expect, it } from 'vitest';
import type { StoryItem } from '../../../shared/highlights';
import type { Segment } from '../../../shared/library';
import {
  highlightedWords,
  inSpokenOrder,
  movedIndex,
  reorder,
  sameMarksOr,
  storyQueue,
  storyFileName,
  storyStep,
  wordsInSpan,
} from './highlight-logic';
import { buildModel } from './reader-model';

/** A sentence whose words start at the given times and last 300 ms each. */
function sentence(position: number, speaker: string, words: [string, number][]): Segment {
  const built = words.map(([text, start]) => ({ text, start, end: start + 300, confidence: 0.9 }));
  return {
    position,
    startMs: built[0]!.start,
    endMs: built.at(-1)!.end,
    speaker,
    confidence: 0.9,
    text: words.map(([text]) => text).join(' '),
    words: built,
  };
}

// Words 0-6: Good(0) morning(400) | The(1000) ferry(1400) contract(1800) | is(2500) late(2900)
const model = buildModel(
  [
    sentence(0, 'A', [
      ['Good', 0],
      ['morning.', 400],
    ]),
    sentence(1, 'B', [
      ['The', 1000],
      ['ferry', 1400],
      ['contract', 1800],
    ]),
    sentence(2, 'B', [
      ['is', 2500],
      ['late.', 2900],
    ]),
  ],
  [],
);

describe('wordsInSpan', () => {
  it('covers each word mostly inside the span, as main snaps a highlight', () => {
    expect(wordsInSpan(model, 1400, 2100)).toEqual({ first: 3, last: 4 });
    // Starting inside "The" (1000-1300) takes it when most of it is inside, not otherwise.
    expect(wordsInSpan(model, 1100, 1500)).toEqual({ first: 2, last: 2 });
    expect(wordsInSpan(model, 1150, 1800)).toEqual({ first: 3, last: 3 });
    // Across a turn.
    expect(wordsInSpan(model, 400, 1200)).toEqual({ first: 1, last: 2 });
    expect(wordsInSpan(model, 0, 10_000)).toEqual({ first: 0, last: 6 });
  });

  it('finds nothing in a gap between words', () => {
    expect(wordsInSpan(model, 2150, 2450)).toBeUndefined();
    expect(wordsInSpan(model, 5000, 6000)).toBeUndefined();
  });
});

describe('highlightedWords', () => {
  const colors = { 1: 'yellow', 2: 'red' } as const;
  const colorOf = (id: number) => colors[id as 1 | 2];

  it('marks each covered word in its label colour, the later highlight winning an overlap', () => {
    const marked = highlightedWords(
      model,
      [
        { startMs: 1000, endMs: 2100, labelId: 1, missing: false },
        { startMs: 1800, endMs: 3200, labelId: 2, missing: false },
      ],
      colorOf,
    );
    expect([...marked]).toEqual([
      [2, 'yellow'],
      [3, 'yellow'],
      [4, 'red'],
      [5, 'red'],
      [6, 'red'],
    ]);
  });

  it('marks no word for a highlight whose words were deleted', () => {
    expect(
      highlightedWords(model, [{ startMs: 0, endMs: 700, labelId: 1, missing: true }], colorOf).size,
    ).toBe(0);
  });
});

describe('inSpokenOrder', () => {
  it('orders by start, the longer first at the same start, then by id', () => {
    const rows = [
      { id: 1, startMs: 900, endMs: 1000 },
      { id: 2, startMs: 100, endMs: 200 },
      { id: 3, startMs: 100, endMs: 800 },
      { id: 4, startMs: 100, endMs: 800 },
    ];
    expect(inSpokenOrder(rows).map((row) => row.id)).toEqual([3, 4, 2, 1]);
    expect(rows[0]!.id).toBe(1);
  });
});

describe('moving story items', () => {
  it('moves up and down inside the list and not past its ends', () => {
    expect(movedIndex(1, -1, 3)).toBe(0);
    expect(movedIndex(1, 1, 3)).toBe(2);
    expect(movedIndex(0, -1, 3)).toBeUndefined();
    expect(movedIndex(2, 1, 3)).toBeUndefined();
    expect(movedIndex(5, -1, 3)).toBeUndefined();
  });

  it('reorders a copy, as main will', () => {
    const items = ['a', 'b', 'c', 'd'];
    expect(reorder(items, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(reorder(items, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(reorder(items, 1, 9)).toEqual(['a', 'c', 'd', 'b']);
    expect(items).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('playing a story', () => {
  const quote = (id: number, extra: Partial<Extract<StoryItem, { kind: 'quote' }>> = {}): StoryItem => ({
    id,
    kind: 'quote',
    highlightId: id,
    text: 'words',
    speakerName: 'Mayor',
    transcriptId: `t${id}`,
    transcriptTitle: 'Interview',
    recordedAt: 0,
    languageCode: 'en',
    startMs: id * 1000,
    endMs: id * 1000 + 500,
    missing: false,
    checked: null,
    ...extra,
  });
  const items: StoryItem[] = [
    { id: 10, kind: 'text', text: 'Heading' },
    quote(1),
    quote(2, { missing: true }),
    quote(3, { transcriptId: null }),
    quote(4),
  ];

  it('queues the quotes that can be heard, in story order', () => {
    expect(storyQueue(items)).toEqual([
      { itemId: 1, transcriptId: 't1', startMs: 1000, endMs: 1500 },
      { itemId: 4, transcriptId: 't4', startMs: 4000, endMs: 4500 },
    ]);
  });

  it('plays a cue to its end, then goes to the next, and stops after the last', () => {
    const queue = storyQueue(items);
    expect(storyStep(queue, 0, 1200)).toEqual({ action: 'play' });
    expect(storyStep(queue, 0, 1500)).toEqual({ action: 'next', next: 1 });
    expect(storyStep(queue, 1, 4499)).toEqual({ action: 'play' });
    expect(storyStep(queue, 1, 4600)).toEqual({ action: 'next', next: undefined });
    expect(storyStep([], 0, 0)).toEqual({ action: 'next', next: undefined });
  });
});

describe('storyFileName', () => {
  it('names the file after the story, without the characters file systems refuse', () => {
    expect(storyFileName('Ferry: the "deal" / part 2?', 'docx')).toBe('Ferry the deal part 2.docx');
    expect(storyFileName('  ', 'md')).toBe('story.md');
  });
});

describe('sameMarksOr', () => {
  it('keeps the marks shown while the new ones mark the same words alike, and takes any change', () => {
    const shown = new Map([
      [3, 'yellow'],
      [4, 'yellow'],
    ]);
    expect(sameMarksOr(shown, new Map(shown))).toBe(shown);
    const recoloured = new Map([
      [3, 'yellow'],
      [4, 'green'],
    ]);
    expect(sameMarksOr(shown, recoloured)).toBe(recoloured);
    const moved = new Map([
      [4, 'yellow'],
      [5, 'yellow'],
    ]);
    expect(sameMarksOr(shown, moved)).toBe(moved);
    const fewer = new Map([[3, 'yellow']]);
    expect(sameMarksOr(shown, fewer)).toBe(fewer);
    expect(sameMarksOr(undefined, shown)).toBe(shown);
    expect(sameMarksOr(shown, undefined)).toBeUndefined();
  });
});
