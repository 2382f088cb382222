import { describe, expect, it } from 'vitest';
import type { Segment, Word } from '../../../shared/library';
import { resolveKeymap } from '../../../shared/keymap';
import { commandsForPress, type KeyLike } from './keymap';
import { readerShortcutRows } from './reader-shortcuts';
import {
  notFullyChecked,
  paragraphAt,
  paragraphRows,
  reviewProgress,
  stepUncertain,
  uncertainWords,
} from './review';

/** A sentence whose words are [text, confidence, corrected?], 500 ms apart from `startMs`. */
function sentence(position: number, startMs: number, words: [string, number, boolean?][]): Segment {
  const built: Word[] = words.map(([text, confidence, corrected], i) => ({
    text,
    start: startMs + i * 500,
    end: startMs + i * 500 + 400,
    confidence,
    ...(corrected ? { corrected } : {}),
  }));
  return {
    position,
    startMs,
    endMs: built.at(-1)!.end,
    speaker: 'A',
    confidence: 0.9,
    text: words.map(([text]) => text).join(' '),
    words: built,
  };
}

// Words 0-11 in reading order; low confidence (under 0.6) at 1, 4, 6, 9, 10 and 11, but the
// journalist retyped word 10 (Brennan).
const sentences = [
  sentence(0, 0, [
    ['Good', 0.9],
    ['mornin', 0.4],
    ['everyone.', 0.95],
  ]),
  sentence(1, 2000, [
    ['Mayor', 0.9],
    ['Brenan', 0.3],
  ]),
  sentence(2, 5000, [
    ['The', 0.9],
    ['fairy', 0.59],
    ['leaves', 0.9],
  ]),
  sentence(3, 9000, [
    ['at', 0.9],
    ['nine', 0.1],
    ['Brennan', 0.2, true],
    ['sharp', 0.5],
  ]),
];
// Paragraph 0: sentences 0-1; paragraph 1: sentence 2; paragraph 2: sentence 3.
const paragraphs = [{ startMs: 0 }, { startMs: 5000 }, { startMs: 9000 }];

describe('the uncertain words still to check', () => {
  it('are the low-confidence words nobody corrected, in reading order', () => {
    expect(uncertainWords(sentences, paragraphs, [])).toEqual([1, 4, 6, 9, 11]);
  });

  it('leave out every word of a paragraph stamped as checked', () => {
    expect(uncertainWords(sentences, paragraphs, [{ paragraph: 0, checkedAt: 1, checkedBy: null }])).toEqual([
      6, 9, 11,
    ]);
    expect(
      uncertainWords(sentences, paragraphs, [
        { paragraph: 1, checkedAt: 1, checkedBy: null },
        { paragraph: 2, checkedAt: 2, checkedBy: null },
      ]),
    ).toEqual([1, 4]);
  });

  it('are all there without paragraphs (nothing can be stamped)', () => {
    expect(uncertainWords(sentences, [], [{ paragraph: 0, checkedAt: 1, checkedBy: null }])).toEqual([
      1, 4, 6, 9, 11,
    ]);
  });
});

describe('stepping through them', () => {
  const words = [1, 4, 6, 9, 11];

  it('goes to the next one after the word we are on, and back', () => {
    expect(stepUncertain(words, -1, 1)).toBe(1);
    expect(stepUncertain(words, 1, 1)).toBe(4);
    expect(stepUncertain(words, 2, 1)).toBe(4);
    expect(stepUncertain(words, 4, -1)).toBe(1);
    expect(stepUncertain(words, 5, -1)).toBe(4);
    expect(stepUncertain(words, 11, -1)).toBe(9);
    expect(stepUncertain(words, 100, -1)).toBe(11);
  });

  it('stops at either end rather than wrap', () => {
    expect(stepUncertain(words, 11, 1)).toBeUndefined();
    expect(stepUncertain(words, 1, -1)).toBeUndefined();
    expect(stepUncertain(words, 0, -1)).toBeUndefined();
    expect(stepUncertain([], 0, 1)).toBeUndefined();
  });

  it('skips a checked paragraph when stepping from before it', () => {
    const left = uncertainWords(sentences, paragraphs, [{ paragraph: 1, checkedAt: 1, checkedBy: null }]);
    // From word 4 (Brenan, paragraph 0) the next is in paragraph 2, not "fairy" in paragraph 1.
    expect(stepUncertain(left, 4, 1)).toBe(9);
  });
});

describe('paragraphs', () => {
  it('a moment belongs to the last paragraph that starts at or before it', () => {
    expect(paragraphAt(paragraphs, 0)).toBe(0);
    expect(paragraphAt(paragraphs, 4999)).toBe(0);
    expect(paragraphAt(paragraphs, 5000)).toBe(1);
    expect(paragraphAt(paragraphs, 60_000)).toBe(2);
    expect(paragraphAt([{ startMs: 100 }], 50)).toBe(-1);
    expect(paragraphAt([], 50)).toBe(-1);
  });

  it('list with their time, opening words and stamp', () => {
    const rows = paragraphRows(
      sentences,
      paragraphs,
      [
        { paragraph: 1, checkedAt: 99, checkedBy: 'ana' },
        { paragraph: 2, checkedAt: 1234, checkedBy: null },
      ],
      4,
    );
    expect(rows).toEqual([
      { paragraph: 0, startMs: 0, opening: 'Good mornin everyone. Mayor…', checkedAt: null, checkedBy: null },
      { paragraph: 1, startMs: 5000, opening: 'The fairy leaves…', checkedAt: 99, checkedBy: 'ana' },
      { paragraph: 2, startMs: 9000, opening: 'at nine Brennan sharp…', checkedAt: 1234, checkedBy: null },
    ]);
    expect(paragraphRows(sentences, [...paragraphs, { startMs: 90_000 }], [])[3]?.opening).toBe('(no words)');
  });
});

describe('progress', () => {
  it('says how much is checked, never 100% before the last paragraph', () => {
    expect(reviewProgress(7, 20)).toMatchObject({
      percent: 35,
      text: '7 of 20 paragraphs checked (35%)',
      short: 'Checked 7/20',
    });
    expect(reviewProgress(199, 200).percent).toBe(99);
    expect(reviewProgress(3, 3)).toMatchObject({ percent: 100, short: 'Fully checked' });
    expect(reviewProgress(0, 1).text).toBe('0 of 1 paragraph checked (0%)');
    expect(reviewProgress(0, 0)).toMatchObject({ short: '', percent: 0 });
  });

  it('counts a transcript with paragraphs left as not fully checked', () => {
    expect(notFullyChecked({ checked: 0, paragraphs: 4 })).toBe(true);
    expect(notFullyChecked({ checked: 3, paragraphs: 4 })).toBe(true);
    expect(notFullyChecked({ checked: 4, paragraphs: 4 })).toBe(false);
    // Nothing to check yet (still transcribing, or no speech).
    expect(notFullyChecked({ checked: 0, paragraphs: 0 })).toBe(false);
  });
});

describe('the review keys', () => {
  const defaults = resolveKeymap({ playPauseKey: 'Escape' }, 'linux');
  /** The review or find command a press in the transcript text means, by the keymap. */
  const reviewCommand = (event: KeyLike): string | undefined =>
    commandsForPress(defaults, event, 'transcript-text', true).find((command) =>
      /^(review|find)\./.test(command),
    );
  const press = (
    key: string,
    modifiers: Partial<Record<'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {},
  ) => reviewCommand({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...modifiers });

  it('are function keys, Ctrl+H and Ctrl/Cmd+Option+F, and work while typing', () => {
    expect(press('F8')).toBe('review.next');
    expect(press('F8', { shiftKey: true })).toBe('review.previous');
    expect(press('F9')).toBe('review.check');
    expect(press('F3')).toBe('find.next');
    expect(press('F3', { shiftKey: true })).toBe('find.previous');
    expect(press('h', { ctrlKey: true })).toBe('find.replace');
    // Cmd+H hides the app on a Mac; its editors replace with Cmd+Option+F, where Option makes "ƒ".
    expect(press('H', { metaKey: true })).toBeUndefined();
    expect(
      reviewCommand({ key: 'ƒ', code: 'KeyF', shiftKey: false, ctrlKey: false, metaKey: true, altKey: true }),
    ).toBe('find.replace');
    expect(press('f', { ctrlKey: true, altKey: true })).toBe('find.replace');
  });

  it('are all in the shortcut help', () => {
    const keys = readerShortcutRows({
      platform: 'linux',
      keymap: defaults,
      rewindOnResumeSeconds: 2,
    }).flatMap((row) => row.keys);
    for (const key of ['F8', 'Shift+F8', 'F9', 'F3', 'Shift+F3', 'Ctrl+H']) expect(keys).toContain(key);
  });

  it('never take a key that types', () => {
    for (const key of ['h', 'H', 'n', 'Enter', ' ', 'ArrowDown']) expect(press(key), key).toBeUndefined();
    expect(press('h', { altKey: true })).toBeUndefined();
    expect(press('F8', { ctrlKey: true })).toBeUndefined();
    expect(press('h', { ctrlKey: true, shiftKey: true })).toBeUndefined();
  });
});
