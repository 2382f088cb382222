import type { ExportFormat, ExportSettings } from '../../../shared/export-options';
import { exportBlocks, hhmmss, type ExportTranscript } from './export-model';
import { toDocx } from './docx-export';
import { type CjkFonts, hasCjk, systemCjkFonts } from './fonts';
import { toPdf } from './pdf-export';
import { fieldText, stampedRuns } from './document-model';
import { transcriptDocument } from './transcript-document';
import { maxCharsPerSecond, toSrt, toVtt, type SubtitleOptions, type SubtitleResult } from './subtitles';
import { toCsv, toJson, toMarkdown, toPlainText } from './text-formats';

/** The bytes of one export and what the user should know about them. */
export interface ExportResult {
  bytes: Uint8Array;
  warnings: string[];
}

/** The PDF's CJK font: found on the system unless a caller (a test, a bench) says otherwise. */
export interface ExportEnvironment {
  cjkFonts?: CjkFonts | null;
}

function subtitleOptions(o: ExportSettings): SubtitleOptions {
  return { ...o.subtitles, speakerLabels: o.speakerNames };
}

/**
 * Subtitles of a range keep their place in the recording: cue times are not shifted to start at
 * zero, so the captions still line up with the full video they will be laid over.
 */
function subtitles(format: 'srt' | 'vtt', t: ExportTranscript, o: ExportSettings): SubtitleResult {
  return (format === 'srt' ? toSrt : toVtt)(t, subtitleOptions(o), o);
}

function cpsWarning(result: SubtitleResult): string[] {
  const slow = result.warnings;
  if (slow.length === 0) return [];
  const listed = slow
    .slice(0, 10)
    .map((w) => `${w.index} (${w.cps})`)
    .join(', ');
  const more = slow.length > 10 ? ` and ${slow.length - 10} more` : '';
  return [
    `${slow.length === 1 ? '1 caption is' : `${slow.length} captions are`} faster to read than ${maxCharsPerSecond} characters a second: caption ${listed}${more}. Allow longer captions or more characters per line, or edit them in your subtitle tool.`,
  ];
}

/**
 * "Nothing was said between 00:10:00 and 00:11:00 (the recording is 00:00:14 long)" when the
 * chosen range holds no words: the page warns of it, the command line refuses to write it.
 */
export function emptyRangeProblem(
  t: ExportTranscript,
  o: ExportSettings,
  blockCount = exportBlocks(t, o).length,
): string | undefined {
  if (!o.range || blockCount > 0) return undefined;
  const length = t.audioDurationMs === null ? '' : ` (the recording is ${hhmmss(t.audioDurationMs)} long)`;
  return `Nothing was said between ${hhmmss(o.range.startMs)} and ${hhmmss(o.range.endMs)}${length}`;
}

/** Warnings that do not depend on the file's bytes, so the preview can give them without building it. */
function contentWarnings(
  format: ExportFormat,
  t: ExportTranscript,
  o: ExportSettings,
  env: ExportEnvironment,
): string[] {
  const warnings: string[] = [];
  if (!o.redacted && !t.unredacted) {
    warnings.push(
      'This transcript has no unredacted text (the service keeps it only when asked to), so the export uses the redacted text.',
    );
  }
  const blocks = exportBlocks(t, o);
  const emptyRange = emptyRangeProblem(t, o, blocks.length);
  if (emptyRange) warnings.push(`${emptyRange}: the export has no transcript text.`);
  if (format === 'pdf' && (env.cjkFonts === undefined ? systemCjkFonts() : env.cjkFonts) === null) {
    const cjk = hasCjk(t.title) || blocks.some((b) => hasCjk(b.text) || hasCjk(b.speaker ?? ''));
    if (cjk) {
      warnings.push(
        'Chinese, Japanese or Korean text shows as empty boxes in this PDF: no font for it was found on this computer. Install one (on Debian or Ubuntu: sudo apt install fonts-noto-cjk; on Windows and macOS the system fonts are enough) and export again, or export to Word, which uses the reader’s fonts.',
      );
    }
  }
  return warnings;
}

/** The text formats as text, with their warnings; DOCX and PDF have no text form. */
function renderText(
  format: Exclude<ExportFormat, 'docx' | 'pdf'>,
  t: ExportTranscript,
  o: ExportSettings,
): { text: string; warnings: string[] } {
  switch (format) {
    case 'md':
      return { text: toMarkdown(t, o), warnings: [] };
    case 'txt':
      return { text: toPlainText(t, o), warnings: [] };
    case 'json':
      return { text: toJson(t, o), warnings: [] };
    case 'csv':
      return { text: toCsv(t, o), warnings: [] };
    case 'srt':
    case 'vtt': {
      const result = subtitles(format, t, o);
      return { text: result.text, warnings: cpsWarning(result) };
    }
  }
}

/** One transcript in any of the eight formats, with what the user should be told about it. */
export async function exportTranscript(
  format: ExportFormat,
  t: ExportTranscript,
  o: ExportSettings,
  env: ExportEnvironment = {},
): Promise<ExportResult> {
  const warnings = contentWarnings(format, t, o, env);
  if (format === 'docx') return { bytes: await toDocx(t, o), warnings };
  if (format === 'pdf') {
    const fonts = env.cjkFonts === undefined ? systemCjkFonts() : env.cjkFonts;
    return { bytes: await toPdf(t, o, fonts), warnings };
  }
  const rendered = renderText(format, t, o);
  return { bytes: new TextEncoder().encode(rendered.text), warnings: [...warnings, ...rendered.warnings] };
}

/** About what fits on one printed page, for the preview. */
const pageLines = 48;
const pageColumns = 90;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The first page of an export as plain text lines (never HTML), with the same warnings the
 * export gives. Text formats show their own first lines; DOCX and PDF show the text page one
 * will hold, laid out as they lay it out (title block, then "Speaker: [time] text").
 */
export function previewExport(
  format: ExportFormat,
  t: ExportTranscript,
  o: ExportSettings,
  env: ExportEnvironment = {},
): { lines: string[]; warnings: string[] } {
  const warnings = contentWarnings(format, t, o, env);
  if (format !== 'docx' && format !== 'pdf') {
    const rendered = renderText(format, t, o);
    const lines = rendered.text.replace(/^\uFEFF/, '').split(/\r?\n/);
    return { lines: lines.slice(0, pageLines), warnings: [...warnings, ...rendered.warnings] };
  }
  const d = transcriptDocument(t, o);
  const lines: string[] = [];
  if (d.head) {
    lines.push(d.head.title, ...d.head.fields.map((f) => `${f.label}: ${fieldText(f)}`), '');
  }
  for (const b of d.blocks) {
    if (lines.length >= pageLines) break;
    if (b.kind !== 'speech') continue;
    const text = stampedRuns(b)
      .map((p) => (p.stamp ? `${p.stamp} ${p.text}` : p.text))
      .join(' ');
    lines.push(...wrap(b.speaker ? `${b.speaker}: ${text}` : text, pageColumns), '');
  }
  return { lines: lines.slice(0, pageLines), warnings };
}
