import { formatRecordedAt, languageName } from '../../../shared/display-format';
import { redactedEntitiesLine } from '../../../shared/redaction';
import { appendixHasContent, exportAppendix, exportBlocks, hhmmss, timestampPlan } from './export-model';
import type { ExportOptions, ExportTranscript } from './export-model';

/**
 * The layout DOCX and PDF share: which timestamp goes before which piece of text, and
 * what the title block and appendix say. Both renderers walk this so they cannot drift.
 */
export interface RichPiece {
  /** "[hh:mm:ss]" or null when no timestamp is due before this text. */
  stamp: string | null;
  text: string;
}

export interface RichBlock {
  speaker: string | null;
  pieces: RichPiece[];
}

export interface RichAppendix {
  summary: string | null;
  keyPhrases: string[];
  entities: { type: string; text: string }[];
  /** "3 redacted: phone number, e-mail, person", said after the entities; null when none were. */
  redactedEntities: string | null;
}

export interface RichDocument {
  title: string;
  /** "Label: value" lines under the title; empty when the header is off. */
  meta: { label: string; value: string }[];
  blocks: RichBlock[];
  appendix: RichAppendix | null;
}

const stamp = (ms: number): string => `[${hhmmss(ms)}]`;

export function richDocument(t: ExportTranscript, o: ExportOptions): RichDocument {
  const found = exportBlocks(t, o);
  // timestampPlan is shared with the text formats so every format stamps the same places.
  const plan = timestampPlan(found, o);
  const blocks: RichBlock[] = found.map((b, i) => {
    const p = plan[i];
    const pieces: RichPiece[] = [];
    if (!p || p.block !== null || b.sentences.length === 0) {
      pieces.push({ stamp: p && p.block !== null ? stamp(p.block) : null, text: b.text });
    } else {
      b.sentences.forEach((s, j) => {
        const at = p.sentences[j] ?? null;
        const last = pieces.at(-1);
        if (at !== null || !last) pieces.push({ stamp: at === null ? null : stamp(at), text: s.text });
        else last.text = `${last.text} ${s.text}`;
      });
    }
    return { speaker: o.speakerNames ? b.speaker : null, pieces };
  });

  const meta: RichDocument['meta'] = [];
  if (o.header) {
    meta.push({ label: 'Source', value: t.sourceName });
    meta.push({ label: 'Date', value: formatRecordedAt(t.createdAt) });
    if (t.audioDurationMs !== null) meta.push({ label: 'Duration', value: hhmmss(t.audioDurationMs) });
    if (t.languageCode) meta.push({ label: 'Language', value: languageName(t.languageCode) });
    if (o.range)
      meta.push({ label: 'Excerpt', value: `${hhmmss(o.range.startMs)} – ${hhmmss(o.range.endMs)}` });
  }

  const a = exportAppendix(t, o);
  const appendix =
    a && appendixHasContent(a)
      ? {
          summary: a.summary ?? null,
          keyPhrases: a.keyPhrases ?? [],
          entities: a.entities ?? [],
          redactedEntities: redactedEntitiesLine(a.redactedEntities ?? []),
        }
      : null;

  return { title: t.title, meta, blocks, appendix };
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
