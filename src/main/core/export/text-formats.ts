import { documentToMarkdown, documentToPlainText } from './document-text';
import {
  defaultExportOptions,
  exportAppendix,
  exportBlocks,
  type ExportOptions,
  type ExportTranscript,
  hhmmss,
} from './export-model';
import { transcriptDocument } from './transcript-document';

/**
 * Pure text exports (Markdown, plain text, JSON, CSV): each returns the whole file as a string;
 * writing it is the caller's job. Markdown and plain text are the one document tree's
 * (document-model.ts); subtitles are in subtitles.ts.
 */

export function toMarkdown(t: ExportTranscript, o: ExportOptions = defaultExportOptions): string {
  return documentToMarkdown(transcriptDocument(t, o));
}

export function toPlainText(t: ExportTranscript, o: ExportOptions = defaultExportOptions): string {
  return documentToPlainText(transcriptDocument(t, o));
}

/**
 * JSON shape (version 1), documented here because other tools read it:
 * { format: "verbatim-transcript", version: 1, title, source, createdAt (ISO 8601), durationMs|null,
 *   language|null, correctedWords, speakers: [{ label, name }], range: { startMs, endMs }|null,
 *   blocks: [{ speaker|null, startMs, endMs, text,
 *              sentences: [{ speaker|null, startMs, endMs, text,
 *                            words: [{ text, startMs, endMs, confidence, corrected }] }] }],
 *   analyses?: { summary?, keyPhrases?, entities?: [{ type, text }],
 *                redactedEntities?: [{ kind, count }] }  (only with the appendix option) }
 * The words are the journalist's corrected transcript. `corrected` is true for a word the
 * journalist typed or changed (its confidence is then 1: checked by a person) and false for the
 * service's own; `correctedWords` counts the corrected words in this file (0 when none were).
 * Both were added within version 1: a reader that does not know them can ignore them, as can
 * `redactedEntities`: the redacted entities counted by kind, which `entities` never lists.
 */
export function toJson(t: ExportTranscript, o: ExportOptions = defaultExportOptions): string {
  const blocks = exportBlocks(t, o);
  const analyses = exportAppendix(t, o);
  const correctedWords = blocks.reduce(
    (sum, b) =>
      sum + b.sentences.reduce((inBlock, s) => inBlock + s.words.filter((w) => w.corrected).length, 0),
    0,
  );
  const doc = {
    format: 'verbatim-transcript',
    version: 1,
    title: t.title,
    source: t.sourceName,
    createdAt: new Date(t.createdAt).toISOString(),
    durationMs: t.audioDurationMs,
    language: t.languageCode,
    correctedWords,
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
          corrected: w.corrected === true,
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

export function csvField(value: string): string {
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
