import type { Segment, Word } from '../library';
import type { EditStep, SentenceChange, SentenceContent } from './corrections';
import { jsonEqual } from '../json-equal';

/** A sentence made from its words: times, text and confidence follow the words. */
export function sentenceFrom(words: Word[], speaker: string | null): SentenceContent {
  const first = words[0];
  const last = words.at(-1);
  return {
    startMs: Math.round(first?.start ?? 0),
    endMs: Math.round(Math.max(last?.end ?? 0, first?.start ?? 0)),
    speaker,
    confidence: words.length ? words.reduce((sum, word) => sum + word.confidence, 0) / words.length : null,
    text: words.map((word) => word.text).join(' '),
    words,
  };
}

export function contentOf(segment: Segment | SentenceContent): SentenceContent {
  return {
    startMs: segment.startMs,
    endMs: segment.endMs,
    speaker: segment.speaker,
    confidence: segment.confidence,
    text: segment.text,
    words: segment.words,
  };
}

function sameContent(a: SentenceContent, b: SentenceContent): boolean {
  // Words read back from the library may hold their keys in another order than words just made.
  return jsonEqual(contentOf(a), contentOf(b));
}

/**
 * The smallest change that turns `before` (at `position`) into `after`: sentences that did not
 * change at either end are left out, so an edit rewrites (and re-indexes) only what changed.
 * Null when nothing changed.
 */
export function minimalChange(
  position: number,
  before: readonly SentenceContent[],
  after: readonly SentenceContent[],
): SentenceChange | null {
  let head = 0;
  while (head < before.length && head < after.length && sameContent(before[head]!, after[head]!)) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    sameContent(before[before.length - 1 - tail]!, after[after.length - 1 - tail]!)
  )
    tail++;
  const removed = before.slice(head, before.length - tail).map(contentOf);
  const inserted = after.slice(head, after.length - tail).map(contentOf);
  if (removed.length === 0 && inserted.length === 0) return null;
  return { position: position + head, removed, inserted };
}

/**
 * The sentences after one step, renumbered. The step's positions count in `sentences`. A
 * sentence that keeps its place is the same object, so a one-word fix in a three-hour
 * transcript copies references, not 2,000 sentences.
 */
export function applyStep(sentences: readonly Segment[], step: EditStep): Segment[] {
  const result: Segment[] = [];
  const keep = (sentence: Segment): void => {
    result.push(sentence.position === result.length ? sentence : { ...sentence, position: result.length });
  };
  let next = 0;
  for (const change of step) {
    for (; next < change.position; next++) keep(sentences[next]!);
    for (const inserted of change.inserted) result.push({ ...contentOf(inserted), position: result.length });
    next += change.removed.length;
  }
  for (; next < sentences.length; next++) keep(sentences[next]!);
  return result;
}

/** The step that undoes `step`, with positions counted in the document `step` produced. */
export function invertStep(step: EditStep): EditStep {
  let shift = 0;
  return step.map((change) => {
    const inverted = {
      position: change.position + shift,
      removed: change.inserted,
      inserted: change.removed,
    };
    shift += change.inserted.length - change.removed.length;
    return inverted;
  });
}

/** The steps that undo an edit of several steps: each step's inverse, last step first. */
export function invertSteps(steps: readonly EditStep[]): EditStep[] {
  return [...steps].reverse().map(invertStep);
}
