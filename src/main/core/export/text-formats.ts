import { formatRecordedAt, languageName } from '../../../shared/display-format';
import { redactedEntitiesLine } from '../../../shared/redaction';
import {
  type ExportAnalyses,
  appendixHasContent,
  type ExportBlock,
  type ExportOptions,
  type ExportTranscript,
  defaultExportOptions,
  exportAppendix,
  exportBlocks,
  hhmmss,
  timestampPlan,
} from './export-model';

/**
 * Pure text exports (Markdown, plain text, JSON, CSV): each returns the whole file as a string;
 * writing it is the caller's job. Subtitles are in subtitles.ts.
 */

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

/** Each block as one line: its stamp where one is due, the speaker as `speaker` writes it, the text. */
function blockLines(
  t: ExportTranscript,
  o: ExportOptions,
  speaker: (name: string) => string,
  escape: (s: string) => string,
): string[] {
  const blocks = exportBlocks(t, o);
  const plan = timestampPlan(blocks, o);
  return blocks.map((b, i) => {
    const p = plan[i];
    const prefix: string[] = [];
    if (p?.block !== null && p?.block !== undefined) prefix.push(stamp(p.block));
    if (b.speaker) prefix.push(speaker(b.speaker));
    return [...prefix, blockBody(b, p?.sentences ?? [], escape)].join(' ');
  });
}

/** Escapes the characters Markdown would read as formatting, so quotes render as spoken. */
export function escapeMarkdown(s: string): string {
  // Headings and list markers only mean something at the start of a line, so only escape them there.
  return s.replace(/([\\`*_[\]<>])/g, '\\$1').replace(/^(\s*)(#|[-+]|\d+\.)(?=\s|#|$)/gm, '$1\\$2');
}

/** The appendix to write, when the export has one with anything in it. */
function appendixOf(t: ExportTranscript, o: ExportOptions): ExportAnalyses | undefined {
  const a = exportAppendix(t, o);
  return a && appendixHasContent(a) ? a : undefined;
}

export function toMarkdown(t: ExportTranscript, o: ExportOptions = defaultExportOptions): string {
  const out: string[] = [];
  if (o.header) {
    out.push(`# ${escapeMarkdown(t.title)}`, '');
    for (const [k, v] of headerFields(t)) out.push(`- **${k}:** ${escapeMarkdown(v)}`);
    if (o.range) out.push(`- **Excerpt:** ${hhmmss(o.range.startMs)}–${hhmmss(o.range.endMs)}`);
    out.push('');
  }
  const speaker = (name: string): string => `**${escapeMarkdown(name)}:**`;
  for (const line of blockLines(t, o, speaker, escapeMarkdown)) out.push(line, '');
  const a = appendixOf(t, o);
  if (a) {
    out.push('---', '');
    if (a.summary) out.push('## Summary', '', escapeMarkdown(a.summary), '');
    if (a.keyPhrases?.length)
      out.push('## Key phrases', '', ...a.keyPhrases.map((k) => `- ${escapeMarkdown(k)}`), '');
    const redacted = redactedEntitiesLine(a.redactedEntities ?? []);
    if (a.entities?.length || redacted) {
      out.push(
        '## Entities',
        '',
        ...(a.entities ?? []).map((e) => `- ${escapeMarkdown(e.text)} (${escapeMarkdown(e.type)})`),
        ...(redacted ? [`- ${escapeMarkdown(redacted)}`] : []),
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
  // Upper-case names are the newsroom transcript convention and stand out without formatting.
  const speaker = (name: string): string => `${name.toLocaleUpperCase()}:`;
  for (const line of blockLines(t, o, speaker, same)) out.push(line, '');
  const a = appendixOf(t, o);
  if (a) {
    if (a.summary) out.push('SUMMARY', a.summary, '');
    if (a.keyPhrases?.length) out.push('KEY PHRASES', ...a.keyPhrases.map((k) => `- ${k}`), '');
    const redacted = redactedEntitiesLine(a.redactedEntities ?? []);
    if (a.entities?.length || redacted)
      out.push(
        'ENTITIES',
        ...(a.entities ?? []).map((e) => `- ${e.text} (${e.type})`),
        ...(redacted ? [`- ${redacted}`] : []),
        '',
      );
  }
  return out.join('\n').replace(/\n+$/, '\n');
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
