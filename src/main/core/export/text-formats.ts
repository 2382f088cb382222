import { formatRecordedAt, languageName } from '../../../shared/display-format';
import type { Word } from '../../../shared/library';
import {
  type ExportAnalyses,
  type ExportBlock,
  type ExportOptions,
  type ExportTranscript,
  defaultExportOptions,
  exportAppendix,
  exportBlocks,
  hhmmss,
  timestampPlan,
} from './export-model';

/** Pure text exports: each returns the whole file as a string; writing it is the caller's job. */

function headerFields(t: ExportTranscript): [string, string][] {
  const fields: [string, string][] = [
    ['Source', t.sourceName],
    ['Date', formatRecordedAt(t.createdAt)],
  ];
  if (t.audioDurationMs !== null) fields.push(['Duration', hhmmss(t.audioDurationMs)]);
  if (t.languageCode) fields.push(['Language', languageName(t.languageCode)]);
  return fields;
}

function stamp(ms: number): string {
  return `[${hhmmss(ms)}]`;
}

/** Joins a block's sentences with the inline stamps the options ask for. */
function blockBody(block: ExportBlock, stamps: (number | null)[], escape: (s: string) => string): string {
  return block.sentences
    .map((s, i) => {
      const at = stamps[i];
      return at === null || at === undefined ? escape(s.text) : `${stamp(at)} ${escape(s.text)}`;
    })
    .join(' ');
}

/** Escapes the characters Markdown would read as formatting, so quotes render as spoken. */
function escapeMarkdown(s: string): string {
  // Headings and list markers only mean something at the start of a line, so only escape them there.
  return s.replace(/([\\`*_[\]<>])/g, '\\$1').replace(/^(\s*)(#|[-+]|\d+\.)(?=\s|#|$)/gm, '$1\\$2');
}

/** The appendix to write, when the export has one with anything in it. */
function appendixOf(t: ExportTranscript, o: ExportOptions): ExportAnalyses | undefined {
  const a = exportAppendix(t, o);
  return a && (!!a.summary || (a.keyPhrases?.length ?? 0) > 0 || (a.entities?.length ?? 0) > 0)
    ? a
    : undefined;
}

export function toMarkdown(t: ExportTranscript, o: ExportOptions = defaultExportOptions): string {
  const out: string[] = [];
  if (o.header) {
    out.push(`# ${escapeMarkdown(t.title)}`, '');
    for (const [k, v] of headerFields(t)) out.push(`- **${k}:** ${escapeMarkdown(v)}`);
    if (o.range) out.push(`- **Excerpt:** ${hhmmss(o.range.startMs)}–${hhmmss(o.range.endMs)}`);
    out.push('');
  }
  const blocks = exportBlocks(t, o);
  const plan = timestampPlan(blocks, o);
  blocks.forEach((b, i) => {
    const p = plan[i];
    const prefix: string[] = [];
    if (p?.block !== null && p?.block !== undefined) prefix.push(stamp(p.block));
    if (b.speaker) prefix.push(`**${escapeMarkdown(b.speaker)}:**`);
    const body = blockBody(b, p?.sentences ?? [], escapeMarkdown);
    out.push([...prefix, body].join(' '), '');
  });
  const a = appendixOf(t, o);
  if (a) {
    out.push('---', '');
    if (a.summary) out.push('## Summary', '', escapeMarkdown(a.summary), '');
    if (a.keyPhrases?.length)
      out.push('## Key phrases', '', ...a.keyPhrases.map((k) => `- ${escapeMarkdown(k)}`), '');
    if (a.entities?.length) {
      out.push(
        '## Entities',
        '',
        ...a.entities.map((e) => `- ${escapeMarkdown(e.text)} (${escapeMarkdown(e.type)})`),
        '',
      );
    }
  }
  return out.join('\n').replace(/\n+$/, '\n');
}

export function toPlainText(t: ExportTranscript, o: ExportOptions = defaultExportOptions): string {
  const out: string[] = [];
  const same = (s: string): string => s;
  if (o.header) {
    out.push(t.title);
    for (const [k, v] of headerFields(t)) out.push(`${k}: ${v}`);
    if (o.range) out.push(`Excerpt: ${hhmmss(o.range.startMs)}-${hhmmss(o.range.endMs)}`);
    out.push('');
  }
  const blocks = exportBlocks(t, o);
  const plan = timestampPlan(blocks, o);
  blocks.forEach((b, i) => {
    const p = plan[i];
    const prefix: string[] = [];
    if (p?.block !== null && p?.block !== undefined) prefix.push(stamp(p.block));
    // Upper-case names are the newsroom transcript convention and stand out without formatting.
    if (b.speaker) prefix.push(`${b.speaker.toLocaleUpperCase()}:`);
    out.push([...prefix, blockBody(b, p?.sentences ?? [], same)].join(' '), '');
  });
  const a = appendixOf(t, o);
  if (a) {
    if (a.summary) out.push('SUMMARY', a.summary, '');
    if (a.keyPhrases?.length) out.push('KEY PHRASES', ...a.keyPhrases.map((k) => `- ${k}`), '');
    if (a.entities?.length) out.push('ENTITIES', ...a.entities.map((e) => `- ${e.text} (${e.type})`), '');
  }
  return out.join('\n').replace(/\n+$/, '\n');
}

/**
 * JSON shape (version 1), documented here because other tools read it:
 * { format: "verbatim-transcript", version: 1, title, source, createdAt (ISO 8601), durationMs|null,
 *   language|null, speakers: [{ label, name }], range: { startMs, endMs }|null,
 *   blocks: [{ speaker|null, startMs, endMs, text,
 *              sentences: [{ speaker|null, startMs, endMs, text,
 *                            words: [{ text, startMs, endMs, confidence }] }] }],
 *   analyses?: { summary?, keyPhrases?, entities?: [{ type, text }] }  (only with the appendix option) }
 */
export function toJson(t: ExportTranscript, o: ExportOptions = defaultExportOptions): string {
  const blocks = exportBlocks(t, o);
  const analyses = exportAppendix(t, o);
  const doc = {
    format: 'verbatim-transcript',
    version: 1,
    title: t.title,
    source: t.sourceName,
    createdAt: new Date(t.createdAt).toISOString(),
    durationMs: t.audioDurationMs,
    language: t.languageCode,
    speakers: o.speakerNames ? [...t.speakers].map(([label, name]) => ({ label, name })) : [],
    range: o.range ? { startMs: o.range.startMs, endMs: o.range.endMs } : null,
    blocks: blocks.map((b) => ({
      speaker: b.speaker,
      startMs: b.startMs,
      endMs: b.endMs,
      text: b.text,
      sentences: b.sentences.map((s) => ({
        speaker: s.speaker,
        startMs: s.startMs,
        endMs: s.endMs,
        text: s.text,
        words: s.words.map((w) => ({
          text: w.text,
          startMs: w.start,
          endMs: w.end,
          confidence: w.confidence,
        })),
      })),
    })),
    ...(analyses ? { analyses } : {}),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * Decision: a cell starting with = + - @, a tab or a carriage return gets a leading single quote.
 * Spreadsheets run such a cell as a formula, and a transcript is text from outside (anyone can
 * say "=HYPERLINK(…)" into a microphone): OWASP's guard against CSV injection. The quote shows
 * in the cell, which is the price of never running a formula someone spoke.
 */
function csvGuard(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csvField(value: string): string {
  const cell = csvGuard(value);
  // RFC 4180: quote fields holding separators, quotes or line breaks; double the quotes inside.
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/**
 * One row per sentence, CRLF line ends (RFC 4180). A UTF-8 byte order mark leads so spreadsheet
 * programs read Greek, Arabic and other non-Latin text as UTF-8 instead of a legacy code page.
 */
export function toCsv(t: ExportTranscript, o: ExportOptions = defaultExportOptions): string {
  const rows: string[][] = [['start', 'end', 'start_ms', 'end_ms', 'speaker', 'text']];
  for (const b of exportBlocks(t, { ...o, unit: 'sentences' })) {
    for (const s of b.sentences) {
      rows.push([
        hhmmss(s.startMs),
        hhmmss(s.endMs),
        String(s.startMs),
        String(s.endMs),
        s.speaker ?? '',
        s.text,
      ]);
    }
  }
  return `\uFEFF${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

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
