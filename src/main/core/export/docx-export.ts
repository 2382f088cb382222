import { AlignmentType, Document, Footer, HeadingLevel, Packer, PageNumber, Paragraph, TextRun } from 'docx';
import { type DocBlock, type DocModel, fieldText, isRtl, stampedRuns } from './document-model';
import type { ExportOptions, ExportTranscript } from './export-model';
import { transcriptDocument } from './transcript-document';

// Grey timestamps and citations read as metadata next to the words, not as part of the quote.
const greyColor = '666666';
// Quotes are set in from the journalist's text (720 twips = 1.27 cm), as a printed quotation is.
const quoteIndentTwips = 720;

function textParagraph(text: string): Paragraph {
  const rtl = isRtl(text);
  // rightToLeft marks the run as complex script so Word applies bidi to Arabic and Hebrew.
  return new Paragraph({
    bidirectional: rtl,
    spacing: { after: 120 },
    children: [new TextRun({ text, rightToLeft: rtl })],
  });
}

function speechParagraph(b: Extract<DocBlock, { kind: 'speech' }>): Paragraph {
  const pieces = stampedRuns(b);
  const rtl = isRtl(pieces.map((p) => p.text).join(' '));
  const runs: TextRun[] = [];
  if (b.speaker) runs.push(new TextRun({ text: `${b.speaker}: `, bold: true }));
  pieces.forEach((p, i) => {
    if (i > 0) runs.push(new TextRun(' '));
    if (p.stamp) runs.push(new TextRun({ text: `${p.stamp} `, color: greyColor }));
    runs.push(new TextRun({ text: p.text, rightToLeft: rtl }));
  });
  return new Paragraph({ children: runs, bidirectional: rtl, spacing: { after: 120 } });
}

function blockParagraphs(b: DocBlock): Paragraph[] {
  switch (b.kind) {
    case 'heading':
    case 'part':
      return [
        new Paragraph({
          heading: HeadingLevel.HEADING_1,
          children: [new TextRun(b.kind === 'heading' ? b.text : b.title)],
        }),
      ];
    case 'section':
      return [new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(b.title)] })];
    case 'paragraph':
      return [textParagraph(b.text)];
    case 'speech':
      return [speechParagraph(b)];
    case 'quote': {
      const rtl = isRtl(b.text);
      return [
        new Paragraph({
          bidirectional: rtl,
          indent: { left: quoteIndentTwips },
          keepNext: true,
          children: [new TextRun({ text: b.text, rightToLeft: rtl })],
        }),
        new Paragraph({
          indent: { left: quoteIndentTwips },
          spacing: { after: 200 },
          children: [new TextRun({ text: `— ${b.citation}`, color: greyColor })],
        }),
      ];
    }
    case 'list':
      return b.items.map(
        (item) =>
          new Paragraph({
            bullet: { level: 0 },
            children: item.label
              ? [new TextRun({ text: `${item.label}: `, bold: true }), new TextRun(item.text)]
              : [new TextRun(item.text)],
          }),
      );
  }
}

/** A Word document with real headings and one Word paragraph per block, not one text blob. */
export async function documentToDocx(d: DocModel): Promise<Uint8Array> {
  const children: Paragraph[] = [];
  if (d.head) {
    children.push(new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(d.head.title)] }));
    for (const f of d.head.fields) {
      children.push(
        new Paragraph({
          children: [new TextRun({ text: `${f.label}: `, bold: true }), new TextRun(fieldText(f))],
        }),
      );
    }
    if (d.head.fields.length > 0) children.push(new Paragraph({ children: [] }));
  }
  for (const b of d.blocks) children.push(...blockParagraphs(b));

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

export function toDocx(t: ExportTranscript, o: ExportOptions): Promise<Uint8Array> {
  return documentToDocx(transcriptDocument(t, o));
}
