import { AlignmentType, Document, Footer, HeadingLevel, Packer, PageNumber, Paragraph, TextRun } from 'docx';
import type { ExportOptions, ExportTranscript } from './export-model';
import { isRtl, richDocument } from './rich-blocks';

// Grey timestamps read as metadata next to the words, not as part of the quote.
const stampColor = '666666';

/** A Word document with real headings and one Word paragraph per block, not one text blob. */
export async function toDocx(t: ExportTranscript, o: ExportOptions): Promise<Uint8Array> {
  const d = richDocument(t, o);
  const children: Paragraph[] = [];

  if (o.header) {
    children.push(new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(d.title)] }));
    for (const m of d.meta) {
      children.push(
        new Paragraph({
          children: [new TextRun({ text: `${m.label}: `, bold: true }), new TextRun(m.value)],
        }),
      );
    }
    children.push(new Paragraph({ children: [] }));
  }

  for (const b of d.blocks) {
    const rtl = isRtl(b.pieces.map((p) => p.text).join(' '));
    const runs: TextRun[] = [];
    if (b.speaker) runs.push(new TextRun({ text: `${b.speaker}: `, bold: true }));
    b.pieces.forEach((p, i) => {
      if (i > 0) runs.push(new TextRun(' '));
      if (p.stamp) runs.push(new TextRun({ text: `${p.stamp} `, color: stampColor }));
      // rightToLeft marks the run as complex script so Word applies bidi to Arabic and Hebrew.
      runs.push(new TextRun({ text: p.text, rightToLeft: rtl }));
    });
    children.push(new Paragraph({ children: runs, bidirectional: rtl, spacing: { after: 120 } }));
  }

  const a = d.appendix;
  if (a) {
    children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Appendix')] }));
    if (a.summary) {
      children.push(new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun('Summary')] }));
      children.push(new Paragraph({ children: [new TextRun(a.summary)], bidirectional: isRtl(a.summary) }));
    }
    if (a.keyPhrases.length > 0) {
      children.push(
        new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun('Key phrases')] }),
      );
      for (const k of a.keyPhrases)
        children.push(new Paragraph({ bullet: { level: 0 }, children: [new TextRun(k)] }));
    }
    if (a.entities.length > 0 || a.redactedEntities) {
      children.push(new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun('Entities')] }));
      for (const e of a.entities) {
        children.push(
          new Paragraph({
            bullet: { level: 0 },
            children: [new TextRun({ text: `${e.type}: `, bold: true }), new TextRun(e.text)],
          }),
        );
      }
      if (a.redactedEntities)
        children.push(new Paragraph({ bullet: { level: 0 }, children: [new TextRun(a.redactedEntities)] }));
    }
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
