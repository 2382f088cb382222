import { formatRecordedAt, languageName } from '../../../shared/display-format';
import { redactedEntitiesLine } from '../../../shared/redaction';
import type { DocBlock, DocField, DocModel } from './document-model';
import { appendixHasContent, exportAppendix, exportBlocks, hhmmss, timestampPlan } from './export-model';
import type { ExportOptions, ExportTranscript } from './export-model';

const stamp = (ms: number): string => `[${hhmmss(ms)}]`;

function headFields(t: ExportTranscript, o: ExportOptions): DocField[] {
  const fields: DocField[] = [
    { label: 'Source', value: t.sourceName },
    { label: 'Date', value: formatRecordedAt(t.createdAt) },
  ];
  if (t.audioDurationMs !== null) fields.push({ label: 'Duration', value: hhmmss(t.audioDurationMs) });
  if (t.languageCode) fields.push({ label: 'Language', value: languageName(t.languageCode) });
  if (o.range)
    fields.push({ label: 'Excerpt', value: { from: hhmmss(o.range.startMs), to: hhmmss(o.range.endMs) } });
  return fields;
}

function appendixBlocks(t: ExportTranscript, o: ExportOptions): DocBlock[] {
  const a = exportAppendix(t, o);
  if (!a || !appendixHasContent(a)) return [];
  const blocks: DocBlock[] = [{ kind: 'part', title: 'Appendix' }];
  if (a.summary) blocks.push({ kind: 'section', title: 'Summary' }, { kind: 'paragraph', text: a.summary });
  if (a.keyPhrases?.length) {
    blocks.push(
      { kind: 'section', title: 'Key phrases' },
      { kind: 'list', items: a.keyPhrases.map((text) => ({ label: null, text })) },
    );
  }
  // "3 redacted: phone number, e-mail, person", said after the entities, which never list them.
  const redacted = redactedEntitiesLine(a.redactedEntities ?? []);
  if (a.entities?.length || redacted) {
    blocks.push(
      { kind: 'section', title: 'Entities' },
      {
        kind: 'list',
        items: [
          ...(a.entities ?? []).map((e) => ({ label: e.type, text: e.text })),
          ...(redacted ? [{ label: null, text: redacted }] : []),
        ],
      },
    );
  }
  return blocks;
}

/** A transcript export as the one document tree (document-model.ts) every rich and text format renders. */
export function transcriptDocument(t: ExportTranscript, o: ExportOptions): DocModel {
  const found = exportBlocks(t, o);
  // Where stamps go is timestampPlan's choice, so every format stamps the same places.
  const plan = timestampPlan(found, o);
  const speech: DocBlock[] = found.map((b, i) => {
    const p = plan[i];
    return {
      kind: 'speech',
      speaker: b.speaker,
      stamp: p && p.block !== null ? stamp(p.block) : null,
      pieces: b.sentences.map((s, j) => {
        const at = p?.sentences[j] ?? null;
        return { stamp: at === null ? null : stamp(at), text: s.text };
      }),
    };
  });
  return {
    title: t.title,
    head: o.header ? { title: t.title, fields: headFields(t, o) } : null,
    blocks: [...speech, ...appendixBlocks(t, o)],
  };
}
