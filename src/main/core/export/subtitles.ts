import type { Word } from '../../../shared/library';
import {
  type ExportOptions,
  type ExportTranscript,
  defaultExportOptions,
  exportBlocks,
  hhmmss,
} from './export-model';

/**
 * Subtitle exports (SRT and WebVTT): the transcript's words laid into timed captions that keep
 * to line, length and reading-speed limits. Each returns the whole file and its warnings.
 */

export interface SubtitleOptions {
  charsPerLine: number;
  maxLines: number;
  maxDurationMs: number;
  minGapMs: number;
  speakerLabels: boolean;
}

export const defaultSubtitleOptions: SubtitleOptions = {
  charsPerLine: 42,
  maxLines: 2,
  maxDurationMs: 7000,
  minGapMs: 80,
  speakerLabels: true,
};

/** Reading speed above which a caption is flagged (common broadcast guideline). */
export const maxCharsPerSecond = 17;

export interface SubtitleResult {
  text: string;
  /** 1-based cue numbers whose reading speed is above maxCharsPerSecond. */
  warnings: { index: number; cps: number }[];
}

export interface Caption {
  startMs: number;
  endMs: number;
  speaker: string | null;
  lines: string[];
}

interface CaptionWord {
  text: string;
  start: number;
  end: number;
  speaker: string | null;
}

/** A pause this long starts a new caption so text does not linger over silence. */
const pauseBreakMs = 1500;
const punctuationEnd = /[.,!?;:…。，！？،؛؟]["'”’»)]*$/u;
const sentenceEnd = /[.!?…。！？؟]["'”’»)]*$/u;

/** Words to caption, after range and redaction; sentences without word timings are spread evenly. */
function captionWords(t: ExportTranscript, o: Partial<ExportOptions>): CaptionWord[] {
  const blocks = exportBlocks(t, { ...defaultExportOptions, ...o, unit: 'sentences', speakerNames: true });
  const words: CaptionWord[] = [];
  for (const b of blocks) {
    for (const s of b.sentences) {
      const source: Pick<Word, 'text' | 'start' | 'end'>[] =
        s.words.length > 0 ? s.words : spread(s.text, s.startMs, s.endMs);
      for (const w of source) {
        const text = w.text.replace(/\s+/g, ' ').trim();
        if (text) words.push({ text, start: w.start, end: Math.max(w.end, w.start), speaker: s.speaker });
      }
    }
  }
  return words;
}

function spread(
  text: string,
  startMs: number,
  endMs: number,
): { text: string; start: number; end: number }[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  const each = tokens.length > 0 ? (endMs - startMs) / tokens.length : 0;
  return tokens.map((w, i) => ({
    text: w,
    start: Math.round(startMs + i * each),
    end: Math.round(startMs + (i + 1) * each),
  }));
}

/**
 * Lays words into at most maxLines lines of at most width characters, never splitting a word.
 * Two lines are balanced (a short second line reads badly), preferring a break after punctuation.
 * Returns null when the words do not fit. A single word wider than a line gets a line of its own.
 */
function layout(words: string[], width: number, maxLines: number, firstLineExtra: number): string[] | null {
  const len = (ws: string[], extra: number): number => ws.join(' ').length + extra;
  if (len(words, firstLineExtra) <= width) return [words.join(' ')];
  if (maxLines >= 2 && words.length >= 2) {
    let best: { k: number; score: number } | null = null;
    for (let k = 1; k < words.length; k++) {
      const a = len(words.slice(0, k), firstLineExtra);
      const b = len(words.slice(k), 0);
      if (a > width || b > width) continue;
      const score = Math.max(a, b) - (punctuationEnd.test(words[k - 1] ?? '') ? 8 : 0);
      if (!best || score < best.score) best = { k, score };
    }
    if (best) return [words.slice(0, best.k).join(' '), words.slice(best.k).join(' ')];
  }
  // More than two lines, or no balanced split: greedy fill.
  const lines: string[][] = [];
  for (const w of words) {
    const line = lines[lines.length - 1];
    const extra = lines.length === 1 ? firstLineExtra : 0;
    if (line && len([...line, w], extra) <= width) line.push(w);
    else lines.push([w]);
  }
  if (lines.length > maxLines) return null;
  return lines.map((l) => l.join(' '));
}

/**
 * Builds caption cues from words. Fills a caption until the next word would break a limit (lines,
 * duration, speaker change, long pause); the caption is then cut after its last punctuation if
 * that keeps at least half of it, so captions end on phrase boundaries where possible.
 */
export function buildCaptions(
  t: ExportTranscript,
  so: SubtitleOptions = defaultSubtitleOptions,
  o: Partial<ExportOptions> = {},
  labelWidth: (speaker: string | null) => number = () => 0,
): Caption[] {
  const words = captionWords(t, o);
  const groups: CaptionWord[][] = [];
  let current: CaptionWord[] = [];
  const fits = (ws: CaptionWord[]): boolean => {
    const first = ws[0];
    const last = ws[ws.length - 1];
    if (!first || !last) return true;
    if (ws.length > 1 && last.end - first.start > so.maxDurationMs) return false;
    return (
      layout(
        ws.map((w) => w.text),
        so.charsPerLine,
        so.maxLines,
        labelWidth(first.speaker),
      ) !== null
    );
  };
  for (const w of words) {
    const prev = current[current.length - 1];
    const hardBreak = prev && (prev.speaker !== w.speaker || w.start - prev.end >= pauseBreakMs);
    if (prev && (hardBreak || !fits([...current, w]))) {
      let cut = current.length;
      if (!hardBreak) {
        const chars = current.map((c) => c.text.length + 1);
        const total = chars.reduce((a, b) => a + b, 0);
        // A sentence end is the better place to cut and may come earlier; a comma must keep half.
        let seen = 0;
        let strong = 0;
        let weak = 0;
        for (let i = 0; i < current.length - 1; i++) {
          seen += chars[i] ?? 0;
          const text = current[i]?.text ?? '';
          if (sentenceEnd.test(text) && seen >= total / 3) strong = i + 1;
          else if (punctuationEnd.test(text) && seen >= total / 2) weak = i + 1;
        }
        cut = strong || weak || cut;
      }
      groups.push(current.slice(0, cut));
      current = current.slice(cut);
      // Carried words fit on their own; if the new word still does not fit with them, close them too.
      if (!fits([...current, w])) {
        groups.push(current);
        current = [];
      }
    }
    current.push(w);
  }
  if (current.length > 0) groups.push(current);

  const captions: Caption[] = groups
    .filter((g) => g.length > 0)
    .map((g) => {
      const first = g[0] as CaptionWord;
      const last = g[g.length - 1] as CaptionWord;
      return {
        startMs: first.start,
        endMs: Math.min(last.end, first.start + so.maxDurationMs),
        speaker: first.speaker,
        lines: layout(
          g.map((w) => w.text),
          so.charsPerLine,
          so.maxLines,
          labelWidth(first.speaker),
        ) ?? [g.map((w) => w.text).join(' ')],
      };
    });
  return fixTimings(captions, so, t.audioDurationMs);
}

/**
 * Keeps cues in order, inside the audio and apart by the minimum gap, and lets a fast caption stay
 * up longer into the silence after it, so fewer captions are too fast to read. The gap is taken
 * from the end of a cue only while the cue still covers its own words; otherwise the next cue
 * starts a little later instead, so no cue flashes for a few milliseconds. Either way a cue moves
 * by at most the minimum gap against its words.
 */
function fixTimings(captions: Caption[], so: SubtitleOptions, audioMs: number | null): Caption[] {
  const end = audioMs ?? Infinity;
  let floor = 0;
  const out: Caption[] = [];
  captions.forEach((c, i) => {
    const start = Math.max(c.startMs, floor);
    // Only when the stated duration is shorter than the words: what is left has no room.
    if (start >= end) return;
    const next = captions[i + 1];
    const cap = Math.min(end, start + so.maxDurationMs);
    const chars = c.lines.join(' ').length;
    const wanted = start + Math.ceil((chars / maxCharsPerSecond) * 1000);
    let stop = Math.min(Math.max(c.endMs, wanted), cap, next ? next.startMs - so.minGapMs : Infinity);
    stop = Math.max(stop, Math.min(c.endMs, cap), Math.min(start + 1, end));
    out.push({ ...c, startMs: start, endMs: stop });
    floor = stop + so.minGapMs;
  });
  return out;
}

function cps(c: Caption): number {
  const seconds = (c.endMs - c.startMs) / 1000;
  return Math.round((c.lines.join(' ').length / Math.max(seconds, 0.001)) * 10) / 10;
}

function warningsFor(captions: Caption[]): SubtitleResult['warnings'] {
  return captions.flatMap((c, i) => (cps(c) > maxCharsPerSecond ? [{ index: i + 1, cps: cps(c) }] : []));
}

function cueTime(ms: number, separator: ',' | '.'): string {
  const msPart = String(Math.floor(ms) % 1000).padStart(3, '0');
  return `${hhmmss(ms)}${separator}${msPart}`;
}

function srtLabel(speaker: string | null): string {
  return speaker ? `${speaker.toLocaleUpperCase()}: ` : '';
}

export function toSrt(
  t: ExportTranscript,
  so: SubtitleOptions = defaultSubtitleOptions,
  o: Partial<ExportOptions> = {},
): SubtitleResult {
  // The SRT label is shown on screen, so it counts against the first line's width.
  const captions = buildCaptions(t, so, o, (s) => (so.speakerLabels ? srtLabel(s).length : 0));
  const text = captions
    .map((c, i) => {
      // "-->" inside text would be read as a timing line by some players.
      const lines = c.lines.map((l) => l.replace(/-->/g, '->'));
      if (so.speakerLabels && c.speaker) lines[0] = `${srtLabel(c.speaker)}${lines[0] ?? ''}`;
      return `${i + 1}\n${cueTime(c.startMs, ',')} --> ${cueTime(c.endMs, ',')}\n${lines.join('\n')}\n`;
    })
    .join('\n');
  return { text, warnings: warningsFor(captions) };
}

function escapeVtt(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function toVtt(
  t: ExportTranscript,
  so: SubtitleOptions = defaultSubtitleOptions,
  o: Partial<ExportOptions> = {},
): SubtitleResult {
  // Voice tags are markup, not shown as caption text, so they do not count against line width.
  const captions = buildCaptions(t, so, o);
  const cues = captions.map((c, i) => {
    const lines = c.lines.map(escapeVtt);
    if (so.speakerLabels && c.speaker) lines[0] = `<v ${escapeVtt(c.speaker)}>${lines[0] ?? ''}`;
    return `${i + 1}\n${cueTime(c.startMs, '.')} --> ${cueTime(c.endMs, '.')}\n${lines.join('\n')}\n`;
  });
  return { text: ['WEBVTT\n', ...cues].join('\n'), warnings: warningsFor(captions) };
}
