import { AlignmentType, Document, Footer, HeadingLevel, Packer, PageNumber, Paragraph, TextRun } from 'docx';
import { VerbatimError } from '../../../shared/errors';
import type { Story } from '../../../shared/highlights';
import {
  type StoryExportFormat,
  type StoryExportOptions,
  type StoryExportOptionsInput,
  storyExportOptionsSchema,
} from '../../../shared/story-export-options';
import type { AtomicWriteOps } from '../../base/fs';
import { writeExportFile } from './export-file';
import { type CjkFonts, hasCjk, systemCjkFonts } from './fonts';
import {
  BODY_SIZE,
  GREY,
  type Layout,
  collectBytes,
  fontPicker,
  heading,
  keepRoom,
  newDocument,
  numberPages,
  paragraph,
  textColumn,
} from './pdf-export';
import { isRtl } from './rich-blocks';
import { type StoryDocument, quotation, sourceLine, storyDocument } from './story-document';
import { escapeMarkdown } from './text-formats';

/**
 * A story as a file: Markdown and plain text as strings, Word and PDF as bytes, all made from
 * the one StoryDocument layout (story-document.ts). Writing is exportStory's job, atomically.
 */

/** The options as the caller gave them, checked: a bad citation style is refused in plain words. */
export function parseStoryExportOptions(input: StoryExportOptionsInput | undefined): StoryExportOptions {
  const parsed = storyExportOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'The story export options are not valid.';
    throw new VerbatimError('invalid_input', message, { issues: parsed.error.issues });
  }
  return parsed.data;
}

export function storyToMarkdown(d: StoryDocument): string {
  const out: string[] = [`# ${escapeMarkdown(d.title)}`, ''];
  for (const b of d.blocks) {
    if (b.kind === 'heading') out.push(`## ${escapeMarkdown(b.text)}`, '');
    else if (b.kind === 'paragraph') out.push(escapeMarkdown(b.text), '');
    else out.push(`> ${escapeMarkdown(quotation(b))}`, '>', `> — ${escapeMarkdown(b.citation)}`, '');
  }
  if (d.sources) {
    out.push('## Sources', '');
    for (const s of d.sources) out.push(`- ${escapeMarkdown(sourceLine(s))}`);
    out.push('');
  }
  return out.join('\n').replace(/\n+$/, '\n');
}

/** Plain text: headings in capitals (the newsroom convention the transcript export uses too). */
export function storyToPlainText(d: StoryDocument): string {
  const out: string[] = [d.title, ''];
  for (const b of d.blocks) {
    if (b.kind === 'heading') out.push(b.text.toLocaleUpperCase(), '');
    else if (b.kind === 'paragraph') out.push(b.text, '');
    else out.push(`${quotation(b)} — ${b.citation}`, '');
  }
  if (d.sources) {
    out.push('SOURCES');
    for (const s of d.sources) out.push(`- ${sourceLine(s)}`);
    out.push('');
  }
  return out.join('\n').replace(/\n+$/, '\n');
}

// Quotes are set in from the journalist's text (720 twips = 1.27 cm), as a printed quotation is.
const quoteIndentTwips = 720;
const citationColor = '666666';

function docxText(text: string, extra: { color?: string } = {}): Paragraph {
  const rtl = isRtl(text);
  return new Paragraph({
    bidirectional: rtl,
    spacing: { after: 120 },
    children: [new TextRun({ text, rightToLeft: rtl, ...extra })],
  });
}

export async function storyToDocx(d: StoryDocument): Promise<Uint8Array> {
  const children: Paragraph[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(d.title)] }),
  ];
  for (const b of d.blocks) {
    if (b.kind === 'heading') {
      children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(b.text)] }));
    } else if (b.kind === 'paragraph') {
      children.push(docxText(b.text));
    } else {
      const text = quotation(b);
      const rtl = isRtl(text);
      children.push(
        new Paragraph({
          bidirectional: rtl,
          indent: { left: quoteIndentTwips },
          keepNext: true,
          children: [new TextRun({ text, rightToLeft: rtl })],
        }),
        new Paragraph({
          indent: { left: quoteIndentTwips },
          spacing: { after: 200 },
          children: [new TextRun({ text: `— ${b.citation}`, color: citationColor })],
        }),
      );
    }
  }
  if (d.sources) {
    children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Sources')] }));
    for (const s of d.sources)
      children.push(new Paragraph({ bullet: { level: 0 }, children: [new TextRun(sourceLine(s))] }));
  }
  const doc = new Document({
    title: d.title,
    creator: 'Verbatim',
    sections: [
      {
        footers: {
          default: new Footer({
            children: [
              new Paragraph({
                alignment: AlignmentType.CENTER,
                children: [
                  new TextRun({ children: ['Page ', PageNumber.CURRENT, ' of ', PageNumber.TOTAL_PAGES] }),
                ],
              }),
            ],
          }),
        },
        children,
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

const quoteIndentPt = 24;

export async function storyToPdf(
  d: StoryDocument,
  cjk: CjkFonts | null = systemCjkFonts(),
): Promise<Uint8Array> {
  const doc = newDocument(d.title, cjk);
  const bytes = collectBytes(doc);
  const layout = textColumn(doc, fontPicker(cjk));
  const indented: Layout = {
    ...layout,
    left: layout.left + quoteIndentPt,
    width: layout.width - quoteIndentPt,
  };
  heading(layout, d.title, 20);
  doc.moveDown(0.5);
  for (const b of d.blocks) {
    if (b.kind === 'heading') {
      doc.moveDown(0.5);
      heading(layout, b.text, 14);
    } else if (b.kind === 'paragraph') {
      keepRoom(doc, BODY_SIZE * 3);
      paragraph(layout, [{ text: b.text }], BODY_SIZE);
      doc.moveDown(0.5);
    } else {
      // A quote and its citation start on the same page, so a citation is never alone at the top.
      keepRoom(doc, BODY_SIZE * 5);
      paragraph(indented, [{ text: quotation(b) }], BODY_SIZE);
      paragraph(indented, [{ text: `— ${b.citation}`, color: GREY }], 10);
      doc.moveDown(0.7);
    }
  }
  if (d.sources) {
    doc.moveDown(0.5);
    heading(layout, 'Sources', 14);
    for (const s of d.sources) paragraph(layout, [{ text: `• ${sourceLine(s)}` }], BODY_SIZE);
  }
  numberPages(layout);
  doc.end();
  return bytes;
}

/** The texts a story prints, for the check that its Chinese, Japanese or Korean has a font. */
function storyTexts(d: StoryDocument): string[] {
  return [
    d.title,
    ...d.blocks.flatMap((b) => (b.kind === 'quote' ? [b.text, b.citation] : [b.text])),
    ...(d.sources ?? []).map((s) => s.title),
  ];
}

export interface StoryExportEnv {
  /** The CJK font for PDFs; the system's when absent, null for none (tests). */
  cjkFonts?: CjkFonts | null;
}

export interface RenderedStory {
  bytes: Uint8Array;
  warnings: string[];
}

export async function renderStory(
  story: Story,
  format: StoryExportFormat,
  input: StoryExportOptionsInput | undefined,
  env: StoryExportEnv = {},
): Promise<RenderedStory> {
  const d = storyDocument(story, parseStoryExportOptions(input));
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  switch (format) {
    case 'md':
      return { bytes: encode(storyToMarkdown(d)), warnings: [] };
    case 'txt':
      return { bytes: encode(storyToPlainText(d)), warnings: [] };
    case 'docx':
      return { bytes: await storyToDocx(d), warnings: [] };
    case 'pdf': {
      const cjk = env.cjkFonts === undefined ? systemCjkFonts() : env.cjkFonts;
      const warnings =
        cjk === null && storyTexts(d).some(hasCjk)
          ? [
              'Chinese, Japanese or Korean text shows as empty boxes in this PDF: no font for it was found on this computer. Install one (on Debian or Ubuntu: sudo apt install fonts-noto-cjk; on Windows and macOS the system fonts are enough) and export again, or export to Word, which uses the reader’s fonts.',
            ]
          : [];
      return { bytes: await storyToPdf(d, cjk), warnings };
    }
  }
}

export interface StoryExportRequest {
  format: StoryExportFormat;
  path: string;
  options?: StoryExportOptionsInput;
  /** Replace a file already at the path; otherwise it is refused. */
  replace: boolean;
}

/**
 * Renders the story and saves it atomically (export-file.ts): the whole file or, on failure,
 * nothing new and a sentence saying why.
 */
export async function exportStory(
  story: Story,
  request: StoryExportRequest,
  env: StoryExportEnv & { ops?: AtomicWriteOps } = {},
): Promise<{ path: string; warnings: string[] }> {
  const { bytes, warnings } = await renderStory(story, request.format, request.options, env);
  await writeExportFile(request.path, bytes, {
    replace: request.replace,
    ...(env.ops ? { ops: env.ops } : {}),
  });
  return { path: request.path, warnings };
}
