import type { Highlight, HighlightColor, StoryItem } from '../../../shared/highlights';
import type { StoryExportFormat } from '../../../shared/story-export-options';
import { wordIsInRange } from '../../../shared/time-range-words';
import type { ReaderModel } from './reader-model';

/**
 * The renderer's pure logic for highlights and stories (issue #20): which words of the reader a
 * highlight covers, the order of the highlights panel, moving story items by keyboard, and the
 * queue "Play the story" walks through.
 */

/**
 * The words of the model inside a span (flat indices, in order), by the rule main snaps a
 * highlight with (see time-range-words): each word mostly inside it. Words are in spoken
 * order, so only those starting before the span's end are looked at, and of those starting
 * before the span only the ones that could still be mostly inside it: a word starting more
 * than twice the span's length before it would be longer than twice its part inside.
 */
export function wordIndicesInSpan(model: ReaderModel, startMs: number, endMs: number): number[] {
  const { starts } = model;
  const range = { startMs, endMs };
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((starts[mid] as number) <= startMs - 2 * (endMs - startMs)) low = mid + 1;
    else high = mid;
  }
  const indices: number[] = [];
  for (let index = low; index < starts.length && (starts[index] as number) < endMs; index++)
    if (wordIsInRange({ start: starts[index] as number, end: wordEnd(model, index) }, range))
      indices.push(index);
  return indices;
}

/** The first and last word of the model inside a span (see wordIndicesInSpan). */
export function wordsInSpan(
  model: ReaderModel,
  startMs: number,
  endMs: number,
): { first: number; last: number } | undefined {
  const indices = wordIndicesInSpan(model, startMs, endMs);
  const first = indices[0];
  const last = indices.at(-1);
  return first !== undefined && last !== undefined ? { first, last } : undefined;
}

function wordEnd(model: ReaderModel, index: number): number {
  const words = model.turns[model.turnOf[index] ?? -1]?.words;
  const first = words?.[0];
  // A turn's words are numbered one after another.
  return (first ? words[index - first.index]?.end : undefined) ?? 0;
}

/**
 * The colour each highlighted word is shown in, keyed by its flat index (data-w). A word under
 * two highlights takes the later one's colour; a missing highlight covers no word.
 */
export function highlightedWords(
  model: ReaderModel,
  highlights: readonly Pick<Highlight, 'startMs' | 'endMs' | 'labelId' | 'missing'>[],
  colorOf: (labelId: number) => HighlightColor,
): Map<number, HighlightColor> {
  const marked = new Map<number, HighlightColor>();
  for (const highlight of highlights) {
    if (highlight.missing) continue;
    const color = colorOf(highlight.labelId);
    for (const index of wordIndicesInSpan(model, highlight.startMs, highlight.endMs))
      marked.set(index, color);
  }
  return marked;
}

/**
 * `next`, or `shown` when both mark the same words alike: a correction rebuilds the reader's
 * model, and a new map with the same marks would have every word on screen checked again.
 */
export function sameMarksOr<K, V>(
  shown: ReadonlyMap<K, V> | undefined,
  next: Map<K, V> | undefined,
): ReadonlyMap<K, V> | undefined {
  if (!shown || !next || shown.size !== next.size) return next;
  for (const [key, value] of next) if (shown.get(key) !== value) return next;
  return shown;
}

/** The highlights panel's order: as they are spoken, the longer first when two start together. */
export function inSpokenOrder<T extends Pick<Highlight, 'id' | 'startMs' | 'endMs'>>(
  highlights: readonly T[],
): T[] {
  return [...highlights].sort((a, b) => a.startMs - b.startMs || b.endMs - a.endMs || a.id - b.id);
}

/**
 * Where Alt+↑/↓ (or the move buttons) send the item at `index` of `length`: the index it goes to,
 * or undefined at the top or the bottom, where it cannot move.
 */
export function movedIndex(index: number, direction: -1 | 1, length: number): number | undefined {
  const target = index + direction;
  return index < 0 || index >= length || target < 0 || target >= length ? undefined : target;
}

/** The items in the order they would have after moving the one at `from` to `to` (shown before main answers). */
export function reorder<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved as T);
  return next;
}

/** One quote of "Play the story": its item, its recording and the span to play. */
export interface StoryCue {
  itemId: number;
  transcriptId: string;
  startMs: number;
  endMs: number;
}

/** The quotes to play back to back, in story order: text items, missing quotes and quotes without a recording are passed over. */
export function storyQueue(items: readonly StoryItem[]): StoryCue[] {
  const queue: StoryCue[] = [];
  for (const item of items) {
    if (item.kind !== 'quote' || item.missing || !item.transcriptId || item.endMs <= item.startMs) continue;
    queue.push({
      itemId: item.id,
      transcriptId: item.transcriptId,
      startMs: item.startMs,
      endMs: item.endMs,
    });
  }
  return queue;
}

/**
 * What the story player does at a moment of the current cue's recording: keep playing, or go on
 * to the next cue (`next` is its position in the queue, or undefined when the story is over).
 */
export function storyStep(
  queue: readonly StoryCue[],
  current: number,
  nowMs: number,
): { action: 'play' } | { action: 'next'; next: number | undefined } {
  const cue = queue[current];
  if (!cue) return { action: 'next', next: undefined };
  if (nowMs < cue.endMs) return { action: 'play' };
  return { action: 'next', next: current + 1 < queue.length ? current + 1 : undefined };
}

/** A story's name as a file name: the characters no file system takes are left out. */
export function storyFileName(name: string, format: StoryExportFormat): string {
  const base =
    name
      .replace(/[\\/:*?"<>|]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120) || 'story';
  return `${base}.${format}`;
}
