import { VerbatimError } from '../errors';
import type { Segment, Word } from '../library';
import { alignWords, type PlacedWord } from './align-words';
import type { EditIntent, EditStep, SentenceChange, SentenceContent } from './corrections';
import { contentOf, minimalChange, sentenceFrom } from './sentence-changes';

/** What planning an edit needs besides the sentences as they are now. */
export interface PlanContext {
  /** The paragraphs' time spans (for "revert this paragraph"), read only when needed. */
  paragraphs: () => readonly Pick<Segment, 'startMs' | 'endMs'>[];
  /** The service's sentences, before any correction. */
  machineSentences: () => readonly Segment[];
  /** The label of the speaker a choice names (a new speaker gets one here). */
  speakerLabel: (choice: { label: string } | { newName: string }) => string;
  /** What a speaker is called in the history ("Mayor Alvarez"). */
  speakerName: (label: string) => string;
}

export interface EditPlan {
  step: EditStep;
  /** The edit in words, for the history and the Undo menu item. */
  summary: string;
  replaced: number;
}

/** Turns what the journalist meant into the sentence changes that do it, without storing anything. */
export function planEdit(sentences: readonly Segment[], intent: EditIntent, context: PlanContext): EditPlan {
  switch (intent.kind) {
    case 'text':
      return planText(sentences, intent.from, intent.count, intent.text);
    case 'speaker': {
      const range = requireRange(sentences, intent.from, intent.count);
      const label = context.speakerLabel(intent.speaker);
      const after = range.map((sentence) => withSpeaker(sentence, label));
      return {
        step: changes(minimalChange(intent.from, range, after)),
        summary: `Gave ${range.length === 1 ? 'a sentence' : `${range.length} sentences`} to ${context.speakerName(label)}`,
        replaced: 0,
      };
    }
    case 'split':
      return planSplit(
        sentences,
        intent.position,
        intent.word,
        context.speakerLabel(intent.speaker),
        context,
      );
    case 'merge': {
      const previous = sentences[intent.position - 1];
      if (!previous || !sentences[intent.position]) throw outOfRange();
      const turn = turnFrom(sentences, intent.position);
      const after = turn.map((sentence) => withSpeaker(sentence, previous.speaker));
      return {
        step: changes(minimalChange(intent.position, turn, after)),
        summary: 'Merged two turns',
        replaced: 0,
      };
    }
    case 'replace':
      return planReplace(sentences, intent);
    case 'fixes':
      return planFixes(sentences, intent.fixes);
    case 'revert':
      return planRevert(sentences, intent.paragraph, context);
  }
}

function planText(sentences: readonly Segment[], from: number, count: number, text: string): EditPlan {
  const range = requireRange(sentences, from, count);
  const before = range.map(contentOf);
  const after = retype(before, text);
  const change = minimalChange(from, before, after);
  return { step: changes(change), summary: textSummary(change), replaced: 0 };
}

/** The sentences of a range after their words were retyped as `text`, aligned to the old words. */
export function retype(range: readonly SentenceContent[], text: string): SentenceContent[] {
  const placed: PlacedWord[] = range.flatMap((sentence, index) =>
    sentence.words.map((word) => ({ word, sentence: index })),
  );
  const aligned = alignWords(placed, text, {
    startMs: range[0]?.startMs ?? 0,
    endMs: range.at(-1)?.endMs ?? 0,
    sentence: 0,
  });
  const wordsBySentence: Word[][] = range.map(() => []);
  for (const { word, sentence } of aligned) wordsBySentence[sentence]?.push(word);
  return range.flatMap((sentence, index) => {
    const words = wordsBySentence[index] ?? [];
    if (words.length === 0) return [];
    // Unchanged sentences come back as they were, so they are not rewritten.
    if (words.length === sentence.words.length && words.every((word, i) => word === sentence.words[i]))
      return [sentence];
    return [sentenceFrom(words, sentence.speaker)];
  });
}

function planSplit(
  sentences: readonly Segment[],
  position: number,
  wordIndex: number,
  label: string,
  context: PlanContext,
): EditPlan {
  const sentence = sentences[position];
  if (!sentence || wordIndex >= Math.max(1, sentence.words.length)) throw outOfRange();
  const turn = turnFrom(sentences, position);
  const [first, ...rest] = turn;
  if (!first) throw outOfRange();
  const after: SentenceContent[] = [];
  if (wordIndex > 0) after.push(sentenceFrom(first.words.slice(0, wordIndex), first.speaker));
  after.push(withSpeaker(sentenceFrom(first.words.slice(wordIndex), first.speaker), label));
  for (const sentenceAfter of rest) after.push(withSpeaker(sentenceAfter, label));
  return {
    step: changes(minimalChange(position, turn, after)),
    summary: `Split the turn: ${context.speakerName(label)} from “${first.words[wordIndex]?.text ?? ''}”`,
    replaced: 0,
  };
}

/** Find and replace inside each sentence's text, every word change aligned like typing. */
function planReplace(
  sentences: readonly Segment[],
  intent: Extract<EditIntent, { kind: 'replace' }>,
): EditPlan {
  const pattern = findPattern(intent.find, intent);
  const step: EditStep = [];
  let replaced = 0;
  const targets = intent.at ? [sentences[intent.at.position]].filter((s) => !!s) : sentences;
  if (intent.at && targets.length === 0) throw outOfRange();
  for (const sentence of targets) {
    let occurrence = 0;
    let count = 0;
    // The words as the reader shows them, which is what the journalist searched.
    const shown = sentence.words.map((word) => word.text).join(' ');
    const text = shown.replace(pattern, (match) => {
      const take = !intent.at || occurrence === intent.at.occurrence;
      occurrence++;
      if (!take) return match;
      count++;
      return intent.replacement;
    });
    if (count === 0 || text === shown) continue;
    const change = minimalChange(
      sentence.position,
      [contentOf(sentence)],
      retype([contentOf(sentence)], text),
    );
    if (!change) continue;
    replaced += count;
    step.push(change);
  }
  return {
    step,
    summary: `Replaced “${intent.find}” with “${intent.replacement}”${replaced > 1 ? ` (${replaced} times)` : ''}`,
    replaced,
  };
}

/**
 * Fixes chosen from a list (a glossary's proposals): each names one whole-word match, ignoring
 * case, in one sentence, as find and replace would find it. A sentence's fixes are made from its
 * end backwards so each match is where it was found; one that overlaps another is left out.
 */
function planFixes(
  sentences: readonly Segment[],
  fixes: Extract<EditIntent, { kind: 'fixes' }>['fixes'],
): EditPlan {
  const bySentence = new Map<number, typeof fixes>();
  for (const fix of fixes) bySentence.set(fix.position, [...(bySentence.get(fix.position) ?? []), fix]);
  const step: EditStep = [];
  let replaced = 0;
  for (const [position, chosen] of [...bySentence].sort((a, b) => a[0] - b[0])) {
    const sentence = sentences[position];
    if (!sentence) throw outOfRange();
    const shown = sentence.words.map((word) => word.text).join(' ');
    const { text, placed } = textWithFixes(shown, chosen);
    if (placed.length === 0 || text === shown) continue;
    const change = minimalChange(position, [contentOf(sentence)], retype([contentOf(sentence)], text));
    if (!change) continue;
    replaced += placed.length;
    step.push(change);
  }
  return {
    step,
    summary: `Fixed ${replaced === 1 ? 'a spelling' : `${replaced} spellings`} from the glossary`,
    replaced,
  };
}

/** Where one fix went: its match in the text before, its replacement in the text after. */
export interface PlacedFix<F> {
  fix: F;
  start: number;
  end: number;
  /** Where the replacement is in the text after every fix. */
  after: { start: number; end: number };
}

/**
 * A sentence's text with fixes made, as "Apply glossary" makes them: each is the `occurrence`-th
 * whole-word match of `find` (ignoring case). The proposals are checked with the same making
 * (textWithSpans), so what is proposed is what is written.
 */
export function textWithFixes<F extends { find: string; occurrence: number; replacement: string }>(
  shown: string,
  fixes: readonly F[],
): { text: string; placed: PlacedFix<F>[] } {
  const spans = fixes
    .map((fix) => {
      const match = [...shown.matchAll(findPattern(fix.find, { wholeWord: true }))][fix.occurrence];
      return match?.index === undefined
        ? undefined
        : { fix, start: match.index, end: match.index + match[0].length };
    })
    .filter((span) => span !== undefined);
  return textWithSpans(shown, spans);
}

/**
 * The text with each span replaced by its fix's replacement, made from the end backwards; a span
 * that overlaps one already made (the earlier in the list, at the same place) is left out.
 */
export function textWithSpans<F extends { replacement: string }>(
  shown: string,
  spans: readonly { fix: F; start: number; end: number }[],
): { text: string; placed: PlacedFix<F>[] } {
  const ordered = [...spans].sort((a, b) => b.start - a.start);
  let text = shown;
  let limit = Infinity;
  const made: typeof ordered = [];
  for (const span of ordered) {
    if (span.end > limit) continue;
    text = text.slice(0, span.start) + span.fix.replacement + text.slice(span.end);
    limit = span.start;
    made.push(span);
  }
  // Made from the end; in reading order, each replacement moved by those before it.
  let shift = 0;
  const placed = made.reverse().map((span) => {
    const start = span.start + shift;
    shift += span.fix.replacement.length - (span.end - span.start);
    return { ...span, after: { start, end: start + span.fix.replacement.length } };
  });
  return { text, placed };
}

/** The expression find and replace use: literal text, optionally whole words and case-sensitive. */
export function findPattern(find: string, options: { wholeWord?: boolean; matchCase?: boolean }): RegExp {
  const literal = find.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const body = options.wholeWord ? `(?<![\\p{L}\\p{N}])${literal}(?![\\p{L}\\p{N}])` : literal;
  return new RegExp(body, options.matchCase ? 'gu' : 'giu');
}

/**
 * The paragraph (counting from 0) a sentence belongs to, as revert counts them: the one it
 * starts in, from that paragraph's start up to the next one's; undefined for a sentence before
 * the first paragraph. `show` numbers its lines with it, so its numbers are revert's.
 */
export function paragraphOfSentence(
  paragraphs: readonly Pick<Segment, 'startMs'>[],
  sentence: Pick<Segment, 'startMs'>,
): number | undefined {
  for (let index = paragraphs.length - 1; index >= 0; index--) {
    const until = paragraphs[index + 1]?.startMs ?? Infinity;
    if (sentence.startMs >= paragraphs[index]!.startMs && sentence.startMs < until) return index;
  }
  return undefined;
}

/** The paragraph's sentences (or all of them) as the service wrote them, in place of the corrected ones. */
function planRevert(
  sentences: readonly Segment[],
  paragraph: number | undefined,
  context: PlanContext,
): EditPlan {
  if (paragraph === undefined) {
    const machine = context.machineSentences().map(contentOf);
    return {
      step: changes(minimalChange(0, sentences.map(contentOf), machine)),
      summary: 'Reverted the whole transcript to the machine transcript',
      replaced: 0,
    };
  }
  const paragraphs = context.paragraphs();
  const span = paragraphs[paragraph];
  if (!span) throw outOfRange();
  const inside = (sentence: Segment): boolean => paragraphOfSentence(paragraphs, sentence) === paragraph;
  let first = sentences.findIndex((sentence) => sentence.startMs >= span.startMs);
  if (first < 0) first = sentences.length;
  let last = first;
  while (last < sentences.length && inside(sentences[last]!)) last++;
  const machine = context.machineSentences().filter(inside).map(contentOf);
  const current = sentences.slice(first, last).map(contentOf);
  return {
    step: changes(minimalChange(first, current, machine)),
    summary: `Reverted paragraph ${paragraph + 1} to the machine transcript`,
    replaced: 0,
  };
}

/** The sentences of the turn that starts at `position`: it and the next ones by the same speaker. */
export function turnFrom(sentences: readonly Segment[], position: number): Segment[] {
  const first = sentences[position];
  if (!first) return [];
  let end = position + 1;
  // A hole ends the turn too: main passes only the rows it read, up to the next speaker.
  while (end < sentences.length && sentences[end]?.speaker === first.speaker) end++;
  return sentences.slice(position, end);
}

function withSpeaker(sentence: SentenceContent, label: string | null): SentenceContent {
  return {
    ...contentOf(sentence),
    speaker: label,
    words: sentence.words.map((word) => (word.speaker === undefined ? word : { ...word, speaker: label })),
  };
}

function requireRange(sentences: readonly Segment[], from: number, count: number): Segment[] {
  if (from + count > sentences.length) throw outOfRange();
  return sentences.slice(from, from + count);
}

function changes(change: SentenceChange | null): EditStep {
  return change ? [change] : [];
}

function textSummary(change: SentenceChange | null): string {
  if (!change) return 'Edited the text';
  const wordsOf = (list: SentenceContent[]): string[] => list.flatMap((s) => s.words.map((w) => w.text));
  const before = wordsOf(change.removed);
  const after = wordsOf(change.inserted);
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const quote = (words: string[]): string => {
    const text = words.join(' ');
    return `“${text.length > 40 ? `${text.slice(0, 39)}…` : text}”`;
  };
  const removed = before.slice(head, before.length - tail);
  const inserted = after.slice(head, after.length - tail);
  if (removed.length === 0 && inserted.length === 0) return 'Edited the text';
  if (removed.length === 0) return `Inserted ${quote(inserted)}`;
  if (inserted.length === 0) return `Deleted ${quote(removed)}`;
  return `Changed ${quote(removed)} to ${quote(inserted)}`;
}

function outOfRange(): VerbatimError {
  return new VerbatimError(
    'conflict',
    'That part of the transcript has changed since it was shown. It has been reloaded; make the change again.',
  );
}
