import type { RedactedKind } from '../../../shared/analyses';
import type { Segment, Word } from '../../../shared/library';
import { sentencesInRange, wordsInRange, type TimeRange } from '../../../shared/time-range-words';

/** Everything an export needs, gathered once from the library so every format sees the same input. */
export interface ExportTranscript {
  title: string;
  sourceName: string;
  createdAt: number;
  audioDurationMs: number | null;
  languageCode: string | null;
  /** label -> display name (renamed speakers). */
  speakers: Map<string, string>;
  sentences: Segment[];
  paragraphs: Segment[];
  /**
   * The service's unredacted words, when it returned them, and the appendix as they read (the
   * service's analyses are made from these words, so they carry every detail in clear).
   */
  unredacted?: { words: Word[]; analyses?: ExportAnalyses | undefined } | undefined;
  /** The appendix with the redacted details hidden: what an export shows unless the original is chosen. */
  analyses?: ExportAnalyses | undefined;
}

/** The appendix: summary, key phrases and entities. */
export interface ExportAnalyses {
  summary?: string;
  keyPhrases?: string[];
  entities?: { type: string; text: string }[];
  /** Entities the redacted view counts by kind instead of listing (see redactedEntitiesLine). */
  redactedEntities?: RedactedKind[];
}

/** Whether the appendix has anything to write. */
export function appendixHasContent(a: ExportAnalyses): boolean {
  return (
    !!a.summary ||
    (a.keyPhrases?.length ?? 0) > 0 ||
    (a.entities?.length ?? 0) > 0 ||
    (a.redactedEntities?.length ?? 0) > 0
  );
}

export type TimestampOption =
  { kind: 'none' } | { kind: 'paragraph' } | { kind: 'sentence' } | { kind: 'every'; seconds: number };

export interface ExportOptions {
  unit: 'sentences' | 'paragraphs' | 'turns';
  timestamps: TimestampOption;
  speakerNames: boolean;
  header: boolean;
  appendix: boolean;
  /** false uses the unredacted words where the service returned them. */
  redacted: boolean;
  /**
   * Only a quote: the words mostly inside this span (see time-range-words), or with
   * `wholeSentences` every sentence with such a word, whole.
   */
  range?: ExportRange | undefined;
}

export interface ExportRange extends TimeRange {
  wholeSentences?: boolean | undefined;
}

export const defaultExportOptions: ExportOptions = {
  unit: 'paragraphs',
  timestamps: { kind: 'paragraph' },
  speakerNames: true,
  header: true,
  appendix: false,
  redacted: true,
};

export interface ExportSentence {
  startMs: number;
  endMs: number;
  text: string;
  /** Speaker display name (null when names are off or unknown); CSV and JSON need it per sentence. */
  speaker: string | null;
  /** The words after range and redaction choices, for formats that carry word timings. */
  words: Word[];
}

export interface ExportBlock {
  speaker: string | null;
  startMs: number;
  endMs: number;
  text: string;
  sentences: ExportSentence[];
}

/**
 * The appendix this export carries, if any: redacted unless the journalist chose the original
 * words and the service kept them, the same choice as for the transcript's own words.
 */
export function exportAppendix(t: ExportTranscript, o: ExportOptions): ExportAnalyses | undefined {
  if (!o.appendix) return undefined;
  return !o.redacted && t.unredacted?.analyses ? t.unredacted.analyses : t.analyses;
}

/** "01:02:03"; hours are always shown so columns line up in long recordings. */
export function hhmmss(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}

/** Display name for a speaker label; unnamed labels read "Speaker A" like the library's default. */
export function speakerName(t: ExportTranscript, label: string | null | undefined): string | null {
  if (!label) return null;
  return t.speakers.get(label) ?? `Speaker ${label}`;
}

interface Resolved {
  label: string | null;
  sentence: ExportSentence;
}

/**
 * Applies the redaction choice and the range to one sentence. Returns null when the range leaves
 * nothing of it. Unredacted words are matched by start time because the service returns both word
 * lists with identical timings but different text; a corrected word keeps the time of the word it
 * replaced, so it is never swapped back for the service's.
 */
function resolveSentence(
  t: ExportTranscript,
  o: ExportOptions,
  s: Segment,
  unredactedByStart: Map<number, Word> | null,
): Resolved | null {
  const label = s.speaker ?? s.words[0]?.speaker ?? null;
  const range = o.range;
  let words = s.words;
  let trimmed = false;
  if (range) {
    if (sentencesInRange([s], range).length === 0) return null;
    if (!range.wholeSentences) {
      words = wordsInRange(s.words, range);
      trimmed = words.length !== s.words.length;
    }
  }
  let swapped = false;
  if (unredactedByStart && words.length > 0) {
    words = words.map((w) => {
      // A word the journalist corrected is theirs: the service's word at its time is the one replaced.
      if (w.corrected) return w;
      const u = unredactedByStart.get(w.start);
      if (!u || u.text === w.text) return w;
      swapped = true;
      return { ...w, text: u.text };
    });
  }
  // Keep the stored sentence text unless words changed it, so its spacing and punctuation survive.
  const text = trimmed || swapped ? words.map((w) => w.text).join(' ') : s.text;
  const first = words[0];
  const last = words[words.length - 1];
  return {
    label,
    sentence: {
      startMs: trimmed && first ? first.start : s.startMs,
      endMs: trimmed && last ? last.end : s.endMs,
      text,
      speaker: o.speakerNames ? speakerName(t, label) : null,
      words,
    },
  };
}

function makeBlock(speaker: string | null, sentences: ExportSentence[]): ExportBlock {
  const first = sentences[0];
  const last = sentences[sentences.length - 1];
  return {
    speaker,
    startMs: first ? first.startMs : 0,
    endMs: last ? last.endMs : 0,
    text: sentences.map((s) => s.text).join(' '),
    sentences,
  };
}

/**
 * The range `export --range` writes: the whole sentences with a word in `range` (see
 * time-range-words), from the first one's start to the last one's end; undefined when no word
 * is in it.
 */
export function wholeSentencesRange(t: ExportTranscript, range: TimeRange): ExportRange | undefined {
  const sentences = sentencesInRange(t.sentences, range);
  if (sentences.length === 0) return undefined;
  return {
    startMs: Math.min(...sentences.map((sentence) => sentence.startMs)),
    endMs: Math.max(...sentences.map((sentence) => sentence.endMs)),
    wholeSentences: true,
  };
}

/** Blocks of text ready to render: unit grouping, speaker names, range, redaction applied. */
export function exportBlocks(t: ExportTranscript, o: ExportOptions): ExportBlock[] {
  const unredactedByStart =
    !o.redacted && t.unredacted ? new Map(t.unredacted.words.map((w) => [w.start, w] as const)) : null;
  const sorted = [...t.sentences].sort((a, b) => a.startMs - b.startMs || a.position - b.position);
  const resolved: Resolved[] = [];
  for (const s of sorted) {
    const r = resolveSentence(t, o, s, unredactedByStart);
    if (r) resolved.push(r);
  }
  const name = (label: string | null): string | null => (o.speakerNames ? speakerName(t, label) : null);

  if (o.unit === 'sentences') return resolved.map((r) => makeBlock(name(r.label), [r.sentence]));

  if (o.unit === 'paragraphs' && t.paragraphs.length > 0) {
    // Sentences belong to the last paragraph starting at or before them; the service cuts both
    // from the same words, so boundaries agree up to rounding.
    const paragraphs = [...t.paragraphs].sort((a, b) => a.startMs - b.startMs || a.position - b.position);
    const groups: { label: string | null; items: ExportSentence[] }[] = paragraphs.map((p) => ({
      label: p.speaker ?? p.words[0]?.speaker ?? null,
      items: [],
    }));
    let pi = 0;
    for (const r of resolved) {
      while (pi + 1 < paragraphs.length && (paragraphs[pi + 1]?.startMs ?? Infinity) <= r.sentence.startMs)
        pi++;
      const g = groups[pi];
      if (!g) continue;
      if (g.label === null) g.label = r.label;
      g.items.push(r.sentence);
    }
    return groups.filter((g) => g.items.length > 0).map((g) => makeBlock(name(g.label), g.items));
  }

  // Turns (and paragraphs when the service returned none): consecutive sentences of one speaker.
  const blocks: ExportBlock[] = [];
  let current: { label: string | null; items: ExportSentence[] } | null = null;
  for (const r of resolved) {
    if (!current || current.label !== r.label) {
      if (current) blocks.push(makeBlock(name(current.label), current.items));
      current = { label: r.label, items: [] };
    }
    current.items.push(r.sentence);
  }
  if (current) blocks.push(makeBlock(name(current.label), current.items));
  return blocks;
}

/**
 * Where timestamps go, shared by every text-like format so they agree: a stamp for the block
 * and/or a stamp before individual sentences (null where none).
 */
export function timestampPlan(
  blocks: ExportBlock[],
  o: ExportOptions,
): { block: number | null; sentences: (number | null)[] }[] {
  const ts = o.timestamps;
  if (ts.kind === 'none') return blocks.map((b) => ({ block: null, sentences: b.sentences.map(() => null) }));
  if (ts.kind === 'paragraph')
    return blocks.map((b) => ({ block: b.startMs, sentences: b.sentences.map(() => null) }));
  if (ts.kind === 'sentence')
    return blocks.map((b) => ({ block: null, sentences: b.sentences.map((s) => s.startMs) }));
  // "every N seconds": stamp the first sentence that starts at or after each interval mark.
  const step = Math.max(1, ts.seconds) * 1000;
  let next = -Infinity;
  return blocks.map((b) => ({
    block: null,
    sentences: b.sentences.map((s) => {
      if (s.startMs < next) return null;
      next = (Math.floor(s.startMs / step) + 1) * step;
      return s.startMs;
    }),
  }));
}
