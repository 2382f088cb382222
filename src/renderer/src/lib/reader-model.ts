import type { Segment, TranscriptSummary } from '../../../shared/library';
import { wordsAsShown, type TextChoice } from '../../../shared/redaction';

/** Words under this confidence are marked as doubtful in the reader. */
export const lowConfidence = 0.6;

export interface ReaderWord {
  /** Index in the transcript's flat word list; the DOM carries it as data-w. */
  index: number;
  text: string;
  start: number;
  end: number;
  confidence: number;
  /** Position of the sentence the word is in: what an edit's `position` counts. */
  sentence: number;
  /** The word's index inside its sentence (a split's `word`). */
  inSentence: number;
  /** Typed or checked by the journalist: no longer marked as doubtful. */
  corrected: boolean;
}

/** One block of the reader: a speaker's turn, or a paragraph when there are no speakers. */
export interface Turn {
  index: number;
  speaker: string | null;
  startMs: number;
  endMs: number;
  words: ReaderWord[];
  /** The turn's text as shown, words joined by spaces: what find searches. */
  text: string;
  /** Where each word begins in `text`, for mapping find matches back to words. */
  wordOffsets: number[];
  /** The sentence positions the turn covers, `firstSentence`..`firstSentence + sentenceCount - 1`: what retyping it replaces. */
  firstSentence: number;
  sentenceCount: number;
}

export interface ReaderModel {
  turns: Turn[];
  /** Every word's start, in order: the binary-search table for the playing word. */
  starts: Float64Array;
  /** The turn each word belongs to. */
  turnOf: Uint32Array;
  hasSpeakers: boolean;
}

/** Builds turns from sentences, numbering words from `firstWord` and turns from `firstTurn`. */
class TurnBuilder {
  readonly turns: Turn[] = [];
  wordCount: number;

  constructor(
    private readonly firstTurn: number,
    firstWord: number,
  ) {
    this.wordCount = firstWord;
  }

  add(segment: Segment, joinPrevious: boolean): void {
    let turn = joinPrevious ? this.turns.at(-1) : undefined;
    if (!turn) {
      turn = {
        index: this.firstTurn + this.turns.length,
        speaker: segment.speaker,
        startMs: segment.startMs,
        endMs: segment.endMs,
        words: [],
        text: '',
        wordOffsets: [],
        firstSentence: segment.position,
        sentenceCount: 0,
      };
      this.turns.push(turn);
    }
    turn.endMs = Math.max(turn.endMs, segment.endMs);
    turn.sentenceCount++;
    let inSentence = 0;
    for (const word of segment.words) {
      turn.wordOffsets.push(turn.text.length === 0 ? 0 : turn.text.length + 1);
      turn.text = turn.text.length === 0 ? word.text : `${turn.text} ${word.text}`;
      turn.words.push({
        index: this.wordCount++,
        text: word.text,
        start: word.start,
        end: word.end,
        confidence: word.confidence,
        sentence: segment.position,
        inSentence: inSentence++,
        corrected: word.corrected === true,
      });
    }
  }

  /** Consecutive sentences of one speaker make a turn. */
  addBySpeaker(sentences: readonly Segment[]): void {
    for (const sentence of sentences) this.add(sentence, this.turns.at(-1)?.speaker === sentence.speaker);
  }
}

/**
 * Groups consecutive sentences by speaker into turns; without speakers, paragraphs are the
 * blocks. Words are numbered once here so highlighting and seeking need no lookups later.
 */
export function buildModel(sentences: Segment[], paragraphs: Segment[]): ReaderModel {
  const hasSpeakers = sentences.some((sentence) => sentence.speaker);
  const builder = new TurnBuilder(0, 0);
  if (hasSpeakers) {
    builder.addBySpeaker(sentences);
  } else if (paragraphs.length > 0) {
    // Paragraphs are the blocks; their words come from the sentences that start inside them.
    let next = 0;
    for (const paragraph of paragraphs) {
      let first = true;
      while (next < sentences.length && (sentences[next]?.startMs ?? 0) < paragraph.endMs) {
        builder.add(sentences[next]!, !first);
        first = false;
        next++;
      }
    }
    for (; next < sentences.length; next++) builder.add(sentences[next]!, false);
  } else {
    for (const sentence of sentences) builder.add(sentence, false);
  }
  const { turns, wordCount } = builder;
  const starts = new Float64Array(wordCount);
  const turnOf = new Uint32Array(wordCount);
  for (const turn of turns) {
    for (const word of turn.words) {
      starts[word.index] = word.start;
      turnOf[word.index] = turn.index;
    }
  }
  return { turns, starts, turnOf, hasSpeakers };
}

/** The turn holding sentence `position` (turns are in sentence order). */
function turnOfSentence(turns: readonly Turn[], position: number): number {
  let low = 0;
  let high = turns.length - 1;
  let found = 0;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if ((turns[mid] as Turn).firstSentence <= position) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/**
 * The model after one change of sentences (`sentences` are the sentences after it), rebuilt
 * only around the change: the turns it touches and their neighbours (which it may join or
 * split) are made again, and the turns after them are reused as they were, or renumbered when
 * words, sentences or turns were added or removed. A one-word fix in a three-hour transcript
 * then costs one turn, not 30,000 words, and is repainted within a frame. Without speakers
 * (turns are paragraphs) the whole model is rebuilt.
 */
export function patchModel(
  model: ReaderModel,
  sentences: Segment[],
  paragraphs: Segment[],
  change: { position: number; removed: number; inserted: number },
): ReaderModel {
  const hasSpeakers = sentences.some((sentence) => sentence.speaker);
  if (!model.hasSpeakers || !hasSpeakers || model.turns.length === 0)
    return buildModel(sentences, paragraphs);
  const sentenceDelta = change.inserted - change.removed;
  const firstTurn = turnOfSentence(model.turns, Math.max(0, change.position - 1));
  const lastTurn = turnOfSentence(model.turns, change.position + change.removed);
  const first = model.turns[firstTurn] as Turn;
  const last = model.turns[lastTurn] as Turn;
  const fromSentence = first.firstSentence;
  const toSentence = last.firstSentence + last.sentenceCount + sentenceDelta;
  const firstWord = firstTurn === 0 ? 0 : firstWordAfter(model, firstTurn - 1);
  const oldWordEnd = firstWordAfter(model, lastTurn);

  const builder = new TurnBuilder(firstTurn, firstWord);
  builder.addBySpeaker(sentences.slice(fromSentence, Math.max(fromSentence, toSentence)));
  const turnDelta = builder.turns.length - (lastTurn - firstTurn + 1);
  const wordDelta = builder.wordCount - oldWordEnd;

  const after = model.turns.slice(lastTurn + 1);
  const shifted =
    turnDelta === 0 && wordDelta === 0 && sentenceDelta === 0
      ? after
      : after.map((turn) => ({
          ...turn,
          index: turn.index + turnDelta,
          firstSentence: turn.firstSentence + sentenceDelta,
          words: turn.words.map((word) => ({
            ...word,
            index: word.index + wordDelta,
            sentence: word.sentence + sentenceDelta,
          })),
        }));
  const turns = [...model.turns.slice(0, firstTurn), ...builder.turns, ...shifted];

  // A word retyped in place (no word, sentence or turn added or removed, every word where it
  // was) leaves the word index as it was: the arrays are shared, not copied. A copy of 30,000
  // words was most of a one-word fix's cost in the page (two fresh typed arrays an edit).
  if (turnDelta === 0 && wordDelta === 0 && sameWordPlaces(model, builder.turns))
    return { turns, starts: model.starts, turnOf: model.turnOf, hasSpeakers };

  const wordCount = model.starts.length + wordDelta;
  const starts = new Float64Array(wordCount);
  const turnOf = new Uint32Array(wordCount);
  starts.set(model.starts.subarray(0, firstWord));
  turnOf.set(model.turnOf.subarray(0, firstWord));
  for (const turn of builder.turns)
    for (const word of turn.words) {
      starts[word.index] = word.start;
      turnOf[word.index] = turn.index;
    }
  starts.set(model.starts.subarray(oldWordEnd), builder.wordCount);
  // Copied as a block, then renumbered only when turns were added or removed: this runs once
  // an edit, before the engine has compiled it, where a loop over 30,000 words costs milliseconds.
  turnOf.set(model.turnOf.subarray(oldWordEnd), builder.wordCount);
  if (turnDelta !== 0)
    for (let word = builder.wordCount; word < wordCount; word++) turnOf[word]! += turnDelta;
  return { turns, starts, turnOf, hasSpeakers };
}

/** True when every word of `turns` starts when, and sits in the turn where, `model` has it. */
function sameWordPlaces(model: ReaderModel, turns: readonly Turn[]): boolean {
  for (const turn of turns)
    for (const word of turn.words)
      if (model.starts[word.index] !== word.start || model.turnOf[word.index] !== turn.index) return false;
  return true;
}

/** The flat index the words after turn `turn` start at: one past its last word (or an earlier turn's). */
function firstWordAfter(model: ReaderModel, turn: number): number {
  for (let previous = turn; previous >= 0; previous--) {
    const word = (model.turns[previous] as Turn).words.at(-1);
    if (word) return word.index + 1;
  }
  return 0;
}

/** The last word starting at or before `ms`, or -1 before the first word. */
export function wordAt(starts: ArrayLike<number>, ms: number): number {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if ((starts[mid] as number) <= ms) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/** The turn playing at `ms` (the first turn before any word). */
export function turnAt(model: ReaderModel, ms: number): number {
  const word = wordAt(model.starts, ms);
  return word < 0 ? 0 : (model.turnOf[word] ?? 0);
}

/** "Speaker A" until the journalist names them. */
export function speakerName(label: string | null, speakers: TranscriptSummary['speakers']): string {
  if (!label) return 'Unknown speaker';
  const named = speakers.find((speaker) => speaker.label === label)?.name;
  return named && named.trim() ? named : `Speaker ${label}`;
}

/** 83000 → "00:01:23". */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/**
 * The words a quote covers, from the first selected word to the last, as the reader shows them:
 * the redacted words unless the journalist chose the original. Taken from the transcript rather
 * than the page's selection, so a quote never carries a speaker button or a time between turns.
 */
export function quoteText(
  model: ReaderModel,
  first: number,
  last: number,
  transcript: Record<string, unknown> | null,
  choice: TextChoice,
): string {
  const from = Math.min(first, last);
  const to = Math.max(first, last);
  const words: ReaderWord[] = [];
  for (let turn = model.turnOf[from] ?? 0; turn <= (model.turnOf[to] ?? -1); turn++) {
    for (const word of model.turns[turn]?.words ?? [])
      if (word.index >= from && word.index <= to) words.push(word);
  }
  return wordsAsShown(words, transcript, choice).join(' ');
}

export interface FindMatch {
  turn: number;
  /** Flat indexes of the words the match covers. */
  words: number[];
}

/** Case-insensitive matches of `query` in every turn's text, in reading order. */
export function findMatches(turns: Turn[], query: string): FindMatch[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [];
  const matches: FindMatch[] = [];
  for (const turn of turns) {
    const haystack = turn.text.toLocaleLowerCase();
    let from = haystack.indexOf(needle);
    while (from !== -1) {
      const to = from + needle.length;
      const words: number[] = [];
      for (let i = 0; i < turn.words.length; i++) {
        const start = turn.wordOffsets[i] as number;
        const end = start + (turn.words[i] as ReaderWord).text.length;
        if (start < to && end > from) words.push((turn.words[i] as ReaderWord).index);
      }
      matches.push({ turn: turn.index, words });
      from = haystack.indexOf(needle, to);
    }
  }
  return matches;
}

/** Unredacted words keyed by start time, where the service returned them alongside the redacted ones. */
export function unredactedByStart(transcript: Record<string, unknown> | null): Map<number, string> | null {
  const words = transcript?.unredacted_words;
  if (!Array.isArray(words) || words.length === 0) return null;
  const map = new Map<number, string>();
  for (const word of words as { start?: unknown; text?: unknown }[]) {
    if (typeof word.start === 'number' && typeof word.text === 'string') map.set(word.start, word.text);
  }
  return map;
}

/** Recordings the reader shows as video rather than audio. */
export function isVideo(path: string | null): boolean {
  return !!path && /\.(mp4|m4v|mov|webm|mkv|ogv)$/i.test(path);
}

/** The word a character offset of a turn's text falls in (on a space: the word before it). */
export function wordAtOffset(turn: Turn, offset: number): ReaderWord | undefined {
  let found = 0;
  for (let i = 0; i < turn.wordOffsets.length; i++) {
    if ((turn.wordOffsets[i] as number) <= offset) found = i;
    else break;
  }
  return turn.words[found];
}
