import PDFDocument from 'pdfkit';
import type { ExportOptions, ExportTranscript } from './export-model';
import { type CjkFonts, dejaVuFonts, hasCjk, splitByScript, systemCjkFonts } from './fonts';
import { type DocBlock, type DocModel, fieldText, isRtl, isRtlToken, stampedRuns } from './document-model';
import { transcriptDocument } from './transcript-document';

const REGULAR = 'DejaVuSans';
const BOLD = 'DejaVuSans-Bold';
const CJK_REGULAR = 'CJK';
const CJK_BOLD = 'CJK-Bold';
const BLACK = '#000000';
const GREY = '#666666';
const BODY_SIZE = 11;
const MARGIN = 56; // 2 cm: room for the page-number footer inside the bottom margin.
const QUOTE_INDENT = 24;

interface Run {
  text: string;
  bold?: boolean;
  color?: string;
}

/** The font for a piece of text: the CJK face for Chinese, Japanese and Korean when there is one. */
type FontPicker = (bold: boolean, cjk: boolean) => string;

/** Where paragraphs go: the document, its fonts, and the text column. */
interface Layout {
  doc: PDFKit.PDFDocument;
  pick: FontPicker;
  left: number;
  width: number;
}

/**
 * A PDF built in Node with pdfkit, embedding DejaVu Sans so Greek, Cyrillic, Arabic and Hebrew
 * are readable on any machine. DejaVu has no CJK glyphs, so Chinese, Japanese and Korean runs are
 * set in the system's CJK font (`cjk`); without one they come out as empty boxes, and the caller
 * warns the user (see exportTranscript and renderStory).
 */
export async function documentToPdf(
  d: DocModel,
  cjk: CjkFonts | null = systemCjkFonts(),
): Promise<Uint8Array> {
  const doc = newDocument(d.title, cjk);
  const bytes = collectBytes(doc);
  const layout = textColumn(doc, fontPicker(cjk));
  if (d.head) writeTitleBlock(layout, d.head);
  for (const b of d.blocks) writeBlock(layout, b);
  numberPages(layout);
  doc.end();
  return bytes;
}

export function toPdf(
  t: ExportTranscript,
  o: ExportOptions,
  cjk: CjkFonts | null = systemCjkFonts(),
): Promise<Uint8Array> {
  return documentToPdf(transcriptDocument(t, o), cjk);
}

/** An A4 document with DejaVu registered, and the CJK font when the system has one. */
function newDocument(title: string, cjk: CjkFonts | null): PDFKit.PDFDocument {
  const fonts = dejaVuFonts();
  // bufferPages keeps every page open so page numbers ("Page 2 of 9") can be written at the end.
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: title, Creator: 'Verbatim' },
  });
  doc.registerFont(REGULAR, fonts.regular);
  doc.registerFont(BOLD, fonts.bold);
  // Registering only records the file: pdfkit reads it the first time a CJK run is drawn.
  if (cjk) {
    doc.registerFont(CJK_REGULAR, cjk.regular.path, cjk.regular.family ?? '');
    doc.registerFont(CJK_BOLD, cjk.bold.path, cjk.bold.family ?? '');
  }
  return doc;
}

function fontPicker(cjk: CjkFonts | null): FontPicker {
  return (bold, isCjk) => (isCjk && cjk ? (bold ? CJK_BOLD : CJK_REGULAR) : bold ? BOLD : REGULAR);
}

/** The document's bytes, once it has ended. */
function collectBytes(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  return new Promise<Uint8Array>((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
}

function textColumn(doc: PDFKit.PDFDocument, pick: FontPicker): Layout {
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  return { doc, pick, left, width };
}

function heading(layout: Layout, text: string, size: number): void {
  const { doc } = layout;
  keepRoom(doc, size * 3);
  doc.font(BOLD).fontSize(size).fillColor(BLACK);
  paragraph(layout, [{ text, bold: true }], size);
  doc.moveDown(0.3);
}

function writeTitleBlock(layout: Layout, head: NonNullable<DocModel['head']>): void {
  heading(layout, head.title, 20);
  for (const f of head.fields) {
    paragraph(layout, [{ text: `${f.label}: `, bold: true }, { text: fieldText(f) }], 10);
  }
  layout.doc.moveDown(head.fields.length > 0 ? 1 : 0.5);
}

function writeBlock(layout: Layout, b: DocBlock): void {
  const { doc } = layout;
  switch (b.kind) {
    case 'heading':
      doc.moveDown(0.5);
      heading(layout, b.text, 14);
      return;
    case 'part':
      doc.moveDown(1);
      heading(layout, b.title, 16);
      return;
    case 'section':
      heading(layout, b.title, 13);
      return;
    case 'paragraph':
      keepRoom(doc, BODY_SIZE * 3);
      paragraph(layout, [{ text: b.text }], BODY_SIZE);
      doc.moveDown(0.5);
      return;
    case 'speech': {
      const runs: Run[] = [];
      if (b.speaker) runs.push({ text: `${b.speaker}: `, bold: true });
      const pieces = stampedRuns(b);
      pieces.forEach((p, i) => {
        if (p.stamp) runs.push({ text: `${p.stamp} `, color: GREY });
        runs.push({ text: i < pieces.length - 1 ? `${p.text} ` : p.text });
      });
      // Two lines of room, so a speaker name is never stranded alone at the foot of a page.
      keepRoom(doc, BODY_SIZE * 3);
      paragraph(layout, runs, BODY_SIZE);
      doc.moveDown(0.5);
      return;
    }
    case 'quote': {
      const indented: Layout = {
        ...layout,
        left: layout.left + QUOTE_INDENT,
        width: layout.width - QUOTE_INDENT,
      };
      // A quote and its citation start on the same page, so a citation is never alone at the top.
      keepRoom(doc, BODY_SIZE * 5);
      paragraph(indented, [{ text: b.text }], BODY_SIZE);
      paragraph(indented, [{ text: `— ${b.citation}`, color: GREY }], 10);
      doc.moveDown(0.7);
      return;
    }
    case 'list':
      for (const item of b.items) {
        paragraph(
          layout,
          item.label
            ? [{ text: `• ${item.label}: `, bold: true }, { text: item.text }]
            : [{ text: `• ${item.text}` }],
          BODY_SIZE,
        );
      }
      doc.moveDown(0.5);
      return;
  }
}

/** "Page n of m" centred in every page's bottom margin. */
function numberPages({ doc, left, width }: Layout): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would make pdfkit add a page; lift the margin meanwhile.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(REGULAR)
      .fontSize(9)
      .fillColor(GREY)
      .text(`Page ${i - range.start + 1} of ${range.count}`, left, doc.page.height - bottom / 2 - 5, {
        width,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
}

function keepRoom(doc: PDFKit.PDFDocument, height: number): void {
  if (doc.y + height > doc.page.maxY()) doc.addPage();
}

/**
 * pdfkit sets each piece of text below the line's top by its own font's ascent, and Noto CJK's
 * ascent is larger than DejaVu's: Chinese would sit lower than the Latin text beside it. Giving
 * every piece DejaVu's ascent as its baseline offset keeps one baseline across fonts. The ascent
 * is read from pdfkit's current font (not in its typings); without it pdfkit's default applies.
 */
function sharedBaseline(doc: PDFKit.PDFDocument, size: number): { baseline?: number } {
  doc.font(REGULAR).fontSize(size);
  const ascender = (doc as unknown as { _font?: { ascender?: unknown } })._font?.ascender;
  return typeof ascender === 'number' ? { baseline: -((ascender / 1000) * size) } : {};
}

function paragraph(layout: Layout, runs: Run[], size: number): void {
  const { doc, pick, left, width } = layout;
  const parts = runs.filter((r) => r.text !== '');
  if (isRtl(parts.map((r) => r.text).join(''))) {
    rtlParagraph(layout, parts, size);
    return;
  }
  doc.x = left;
  const baseline = sharedBaseline(doc, size);
  // Each run is split where the script changes, so CJK characters get the CJK font mid-sentence.
  const pieces = parts.flatMap((r) =>
    splitByScript(reverseEmbeddedRtl(r.text)).map((piece) => ({ ...piece, run: r })),
  );
  pieces.forEach((p, i) => {
    doc
      .font(pick(p.run.bold ?? false, p.cjk))
      .fontSize(size)
      .fillColor(p.run.color ?? BLACK)
      .text(p.text, { width, continued: i < pieces.length - 1, ...baseline });
  });
  doc.fillColor(BLACK);
}

const rtlWords =
  /[^\s]*[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF][^\s]*(?:\s+[^\s]*[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF][^\s]*)*/gu;

/**
 * An Arabic or Hebrew phrase inside a left-to-right paragraph. pdfkit lays out each
 * space-separated word on its own, so the words would be placed left to right, and fontkit
 * mirrors each word's trailing space to its left. Joining a short phrase with no-break spaces
 * makes it one run that fontkit mirrors as a whole: right-to-left word order, kept on one line.
 * The extra space after it stands in for the one mirrored to the left. A long phrase (which
 * must be allowed to wrap) just has its word order reversed; if it wraps, its lines are in the
 * wrong order, which transcripts with a long foreign-script quote inside a Latin paragraph may show.
 */
function reverseEmbeddedRtl(text: string): string {
  return text.replace(rtlWords, (m) =>
    m.length <= 60 ? `${m.split(/\s+/).join('\u00A0')} ` : m.split(/\s+/).reverse().join(' '),
  );
}

interface Token {
  text: string;
  font: string;
  color: string;
  width: number;
  rtl: boolean;
}

/**
 * pdfkit shapes Arabic letters but does no bidi reordering, so an Arabic paragraph would come out
 * with its words in left-to-right order. This wraps the words itself and lays each line out right
 * to left, keeping runs of left-to-right words (names, timestamps, numbers) in their own order:
 * a small subset of the Unicode bidi algorithm that is enough for transcripts.
 */
function rtlParagraph(layout: Layout, runs: Run[], size: number): void {
  const { doc, pick, left, width } = layout;
  const tokens: Token[] = [];
  for (const r of runs) {
    // A left-to-right run (a speaker name, a timestamp) stays one token so it is never reversed.
    const words = isRtl(r.text) ? r.text.split(/\s+/).filter((w) => w !== '') : [r.text.trim()];
    for (const w of words) {
      if (w === '') continue;
      const font = pick(r.bold ?? false, hasCjk(w));
      doc.font(font).fontSize(size);
      tokens.push({
        text: w,
        font,
        color: r.color ?? BLACK,
        width: doc.widthOfString(w),
        rtl: isRtlToken(w),
      });
    }
  }
  const baseline = sharedBaseline(doc, size);
  const space = doc.widthOfString(' ');
  const lineHeight = doc.currentLineHeight(true);

  const lines: Token[][] = [];
  let line: Token[] = [];
  let used = 0;
  for (const tok of tokens) {
    const add = line.length === 0 ? tok.width : space + tok.width;
    if (line.length > 0 && used + add > width) {
      lines.push(line);
      line = [];
      used = 0;
    }
    used += line.length === 0 ? tok.width : space + tok.width;
    line.push(tok);
  }
  if (line.length > 0) lines.push(line);

  let y = doc.y;
  for (const l of lines) {
    if (y + lineHeight > doc.page.maxY()) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    // Group consecutive left-to-right tokens, then reverse the group order for display.
    const groups: Token[][] = [];
    for (const tok of l) {
      const last = groups.at(-1);
      const lastTok = last?.at(-1);
      if (last && lastTok && !tok.rtl && !lastTok.rtl) last.push(tok);
      else groups.push([tok]);
    }
    const visual = groups.reverse().flat();
    const total = visual.reduce((s, tok) => s + tok.width, 0) + space * Math.max(0, visual.length - 1);
    let x = left + width - total;
    for (const tok of visual) {
      doc
        .font(tok.font)
        .fontSize(size)
        .fillColor(tok.color)
        .text(tok.text, x, y, { lineBreak: false, ...baseline });
      x += tok.width + space;
    }
    y += lineHeight;
  }
  doc.fillColor(BLACK);
  doc.x = left;
  doc.y = y;
}
