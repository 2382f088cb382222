import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import JSZip from 'jszip';
import { parseSync, type NodeCue } from 'subtitle';
import type { ExportFormat } from '../../../shared/export-options';

/**
 * Test helpers that read exports back with independent tools (a zip reader and the XML,
 * poppler's pdftotext), so tests check what a reader of the file sees, not strings we wrote.
 */
export interface DocxRun {
  text: string;
  bold: boolean;
}
export interface DocxParagraph {
  xml: string;
  style: string | null;
  runs: DocxRun[];
  text: string;
}

const decode = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Reads word/document.xml back out of the zip and splits it into paragraphs and runs. */
export async function readDocx(bytes: Uint8Array): Promise<DocxParagraph[]> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file('word/document.xml')?.async('string');
  if (!xml) throw new Error('word/document.xml missing');
  // `<w:p[ >]` and `<w:r[ >]` skip <w:pPr>/<w:rPr>, which share the prefix.
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map(([p]) => {
    const runs = [...p.matchAll(/<w:r[ >][\s\S]*?<\/w:r>/g)].map(([r]) => ({
      text: [...r.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => decode(m[1] ?? '')).join(''),
      bold: /<w:b\/>|<w:b /.test(r),
    }));
    return {
      xml: p,
      style: /<w:pStyle w:val="([^"]+)"/.exec(p)?.[1] ?? null,
      runs,
      text: runs.map((r) => r.text).join(''),
    };
  });
}

/** Text as poppler reads it back from the PDF: an independent check of what we drew. */
export function pdftotext(file: string): string {
  const r = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pdftotext failed: ${r.stderr}`);
  return r.stdout;
}

/** What a reader of an export in any format sees, read back with a tool of its own kind. */
export async function readBack(format: ExportFormat, bytes: Uint8Array): Promise<string> {
  const text = new TextDecoder().decode(bytes);
  switch (format) {
    case 'docx':
      return (await readDocx(bytes)).map((p) => p.text).join('\n');
    case 'pdf': {
      const dir = mkdtempSync(join(tmpdir(), 'verbatim-read-back-'));
      try {
        const file = join(dir, 'export.pdf');
        writeFileSync(file, bytes);
        return pdftotext(file);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    case 'srt':
    case 'vtt':
      return parseSync(text)
        .filter((n): n is NodeCue => n.type === 'cue')
        .map((n) => n.data.text)
        .join('\n');
    case 'json':
      return JSON.stringify(JSON.parse(text));
    case 'csv':
      return parseCsv<Record<string, string>>(text, { bom: true, columns: true })
        .map((row) => Object.values(row).join(' | '))
        .join('\n');
    default:
      return text;
  }
}
