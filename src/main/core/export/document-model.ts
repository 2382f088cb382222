/**
 * The one document tree every Word, PDF, Markdown and plain-text export is made from, as
 * Pandoc's single document model: transcripts (transcript-document.ts) and stories
 * (story-document.ts) are mapped to it, and one renderer per format (docx-export.ts,
 * pdf-export.ts, document-text.ts) writes it, so a fix in a renderer reaches both.
 * The tree says what the document is; each renderer keeps its format's conventions.
 */

/** A "Label: value" line of the title block. */
export interface DocField {
  label: string;
  /** A time span ("Excerpt") is a pair, so each format can set its own dash between the ends. */
  value: string | { from: string; to: string };
}

/** A sentence of a spoken block, with the "[hh:mm:ss]" stamp due before it, or null. */
export interface DocPiece {
  stamp: string | null;
  text: string;
}

/** A bullet: with a label ("person: Maria"), or just the text. */
export interface DocListItem {
  label: string | null;
  text: string;
}

export type DocBlock =
  /** A heading in the body of the document (a story's own "# " headings). */
  | { kind: 'heading'; text: string }
  /** A paragraph of the journalist's, or a summary. */
  | { kind: 'paragraph'; text: string }
  /**
   * A block of the transcript: the speaker, the stamp for the whole block when one is due
   * there, and the sentences with their own stamps.
   */
  | { kind: 'speech'; speaker: string | null; stamp: string | null; pieces: DocPiece[] }
  /** A quotation as printed (marks and any note included), and its citation without the dash. */
  | { kind: 'quote'; text: string; citation: string }
  /** The start of the back matter: Word and PDF show its title, Markdown a rule, plain text nothing. */
  | { kind: 'part'; title: string }
  /** The title of a short back-matter section (Summary, Key phrases, Entities, Sources). */
  | { kind: 'section'; title: string }
  | { kind: 'list'; items: DocListItem[] };

export interface DocModel {
  /** The document's title, in the file's properties. */
  title: string;
  /** The title block at the top; null when it is switched off. */
  head: { title: string; fields: DocField[] } | null;
  blocks: DocBlock[];
}

/**
 * A spoken block as Word and PDF lay it out: consecutive sentences without a stamp read as one
 * run of text, and the block's own stamp goes before its first words.
 */
export function stampedRuns(b: Extract<DocBlock, { kind: 'speech' }>): DocPiece[] {
  const runs: DocPiece[] = [];
  for (const p of b.pieces) {
    const last = runs.at(-1);
    if (p.stamp !== null || !last) runs.push({ ...p });
    else last.text = `${last.text} ${p.text}`;
  }
  if (b.stamp !== null) {
    const first = runs[0];
    if (first) first.stamp = b.stamp;
    else runs.push({ stamp: b.stamp, text: '' });
  }
  if (runs.length === 0) runs.push({ stamp: null, text: '' });
  return runs;
}

/** Every text the document prints, for the check that its Chinese, Japanese or Korean has a font. */
export function documentTexts(d: DocModel): string[] {
  const texts = [d.title, ...(d.head?.fields.map((f) => (typeof f.value === 'string' ? f.value : '')) ?? [])];
  for (const b of d.blocks) {
    switch (b.kind) {
      case 'heading':
      case 'paragraph':
        texts.push(b.text);
        break;
      case 'speech':
        texts.push(b.speaker ?? '', ...b.pieces.map((p) => p.text));
        break;
      case 'quote':
        texts.push(b.text, b.citation);
        break;
      case 'part':
      case 'section':
        texts.push(b.title);
        break;
      case 'list':
        texts.push(...b.items.flatMap((i) => [i.label ?? '', i.text]));
        break;
    }
  }
  return texts.filter((t) => t !== '');
}

const rtlChar = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const ltrChar = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]/u;

/** True when right-to-left letters (Arabic, Hebrew) outnumber left-to-right ones. */
export function isRtl(text: string): boolean {
  let rtl = 0;
  let ltr = 0;
  for (const ch of text) {
    if (rtlChar.test(ch)) rtl++;
    else if (ltrChar.test(ch)) ltr++;
  }
  return rtl > ltr;
}

/** True for a single token that is right-to-left (an Arabic or Hebrew word). */
export function isRtlToken(token: string): boolean {
  return rtlChar.test(token);
}

/** A title-block field as Word, PDF and the preview print it. */
export function fieldText(f: DocField): string {
  return typeof f.value === 'string' ? f.value : `${f.value.from} – ${f.value.to}`;
}
