import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parse as parseCsv } from 'csv-parse/sync';
import { defaultExportOptions, type ExportOptions, type ExportTranscript } from './export-model';
import { toCsv, toJson, toMarkdown, toPlainText } from './text-formats';
import { interview, makeTranscript } from './text-fixtures.test-kit';

const opts = (o: Partial<ExportOptions> = {}): ExportOptions => ({ ...defaultExportOptions, ...o });

const analyses = {
  summary: 'The council approved the budget.',
  keyPhrases: ['budget', 'council'],
  entities: [{ type: 'person_name', text: 'Maria Lopez' }],
};

function greekArabic(): ExportTranscript {
  return makeTranscript(
    [
      { speaker: 'A', text: 'Καλημέρα σας, κύριε δήμαρχε.' },
      { speaker: 'B', text: 'صباح الخير، كيف حالك؟' },
    ],
    {
      speakers: new Map([
        ['A', 'Ελένη Παπαδοπούλου'],
        ['B', 'ليلى حداد'],
      ]),
    },
  );
}

describe('Markdown', () => {
  it('writes the header, bold renamed speakers, paragraph stamps and the appendix', () => {
    const md = toMarkdown({ ...interview(), analyses }, opts({ appendix: true }));
    const lines = md.split('\n');
    expect(lines[0]).toBe('# Council meeting');
    expect(lines).toContain('- **Source:** council.mp3');
    expect(lines).toContain('- **Date:** Nov 20, 2026, 9:30 AM');
    expect(lines.some((l) => /^- \*\*Duration:\*\* \d\d:\d\d:\d\d$/.test(l))).toBe(true);
    const body = lines.filter((l) => /^\[\d\d:\d\d:\d\d\] \*\*/.test(l));
    expect(body).toHaveLength(3);
    expect(body[0]).toBe(
      '[00:00:00] **Maria Lopez:** Good morning, everyone. The budget is "final", she said.',
    );
    expect(body[1]).toMatch(/\*\*Speaker B:\*\* Call me at ##########, please\.$/);
    expect(lines).toContain('## Summary');
    expect(lines).toContain('- budget');
    expect(lines).toContain('- Maria Lopez (person\\_name)');
  });

  it('leaves out header, names, stamps and appendix when turned off', () => {
    const md = toMarkdown(
      { ...interview(), analyses },
      opts({ header: false, speakerNames: false, timestamps: { kind: 'none' }, appendix: false }),
    );
    expect(md.split('\n')[0]).toBe('Good morning, everyone. The budget is "final", she said.');
    expect(md).not.toMatch(/\*\*|\[\d\d:|Summary|council\.mp3/);
  });

  it('escapes text that Markdown would read as formatting', () => {
    const t = makeTranscript([{ speaker: 'A', text: '# 1. *not* bold_text <b>' }]);
    const md = toMarkdown(t, opts({ header: false, speakerNames: false, timestamps: { kind: 'none' } }));
    expect(md).toBe('\\# 1. \\*not\\* bold\\_text \\<b\\>\n');
  });

  it('uses unredacted text on request, stamps each sentence, and keeps Greek and Arabic', () => {
    const md = toMarkdown(interview(), opts({ redacted: false, timestamps: { kind: 'sentence' } }));
    expect(md).toContain('Call me at 5551234567, please.');
    expect(md).toMatch(/\*\*Maria Lopez:\*\* \[00:00:00\] Good morning, everyone\. \[00:00:0\d\] The budget/);
    const intl = toMarkdown(greekArabic(), opts());
    expect(intl).toContain('**Ελένη Παπαδοπούλου:** Καλημέρα σας, κύριε δήμαρχε.');
    expect(intl).toContain('**ليلى حداد:** صباح الخير، كيف حالك؟');
  });
});

describe('plain text', () => {
  it('writes NAME: prefixes, stamps, header and appendix', () => {
    const txt = toPlainText({ ...interview(), analyses }, opts({ appendix: true, unit: 'turns' }));
    const lines = txt.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'Council meeting',
      'Source: council.mp3',
      'Date: Nov 20, 2026, 9:30 AM',
      expect.stringMatching(/^Duration: /),
    ]);
    expect(lines).toContain('Language: English');
    expect(lines).toContain(
      '[00:00:00] MARIA LOPEZ: Good morning, everyone. The budget is "final", she said.',
    );
    expect(lines.some((l) => /^\[\d\d:\d\d:\d\d\] SPEAKER B: Call me at ##########, please\.$/.test(l))).toBe(
      true,
    );
    expect(lines).toContain('SUMMARY');
    expect(lines).toContain('- Maria Lopez (person_name)');
  });

  it('exports only the quote in a range, with Greek intact', () => {
    const t = greekArabic();
    const s = t.sentences[0];
    const range = { startMs: s?.startMs ?? 0, endMs: s?.endMs ?? 0 };
    const txt = toPlainText(t, opts({ header: false, range }));
    expect(txt.trim()).toBe('[00:00:00] ΕΛΈΝΗ ΠΑΠΑΔΟΠΟΎΛΟΥ: Καλημέρα σας, κύριε δήμαρχε.');
  });
});

const jsonSchema = z
  .object({
    format: z.literal('verbatim-transcript'),
    version: z.literal(1),
    title: z.string(),
    source: z.string(),
    createdAt: z.string().datetime(),
    durationMs: z.number().int().nullable(),
    language: z.string().nullable(),
    correctedWords: z.number().int().min(0),
    speakers: z.array(z.object({ label: z.string(), name: z.string() }).strict()),
    range: z.object({ startMs: z.number(), endMs: z.number() }).strict().nullable(),
    blocks: z.array(
      z
        .object({
          speaker: z.string().nullable(),
          startMs: z.number().int(),
          endMs: z.number().int(),
          text: z.string(),
          sentences: z.array(
            z
              .object({
                speaker: z.string().nullable(),
                startMs: z.number().int(),
                endMs: z.number().int(),
                text: z.string(),
                words: z.array(
                  z
                    .object({
                      text: z.string(),
                      startMs: z.number(),
                      endMs: z.number(),
                      confidence: z.number(),
                      corrected: z.boolean(),
                    })
                    .strict(),
                ),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
    analyses: z
      .object({
        summary: z.string().optional(),
        keyPhrases: z.array(z.string()).optional(),
        entities: z.array(z.object({ type: z.string(), text: z.string() })).optional(),
      })
      .optional(),
  })
  .strict();

describe('JSON', () => {
  it('matches the documented schema, with renamed speakers and words', () => {
    const doc = jsonSchema.parse(JSON.parse(toJson({ ...interview(), analyses }, opts({ appendix: true }))));
    expect(doc.createdAt).toBe('2026-11-20T09:30:00.000Z');
    expect(doc.speakers).toContainEqual({ label: 'A', name: 'Maria Lopez' });
    expect(doc.blocks.map((b) => b.speaker)).toEqual(['Maria Lopez', 'Speaker B', 'Maria Lopez']);
    expect(doc.blocks[0]?.sentences[0]?.words[0]).toMatchObject({ text: 'Good' });
    expect(doc.analyses?.summary).toBe(analyses.summary);
  });

  it('switches redaction, limits to a range and keeps Arabic', () => {
    const t = interview();
    const redacted = jsonSchema.parse(JSON.parse(toJson(t, opts())));
    const clear = jsonSchema.parse(JSON.parse(toJson(t, opts({ redacted: false }))));
    expect(redacted.blocks[1]?.text).toContain('##########');
    expect(clear.blocks[1]?.text).toContain('5551234567');
    expect(clear.blocks[1]?.sentences[0]?.words.map((w) => w.text)).toContain('5551234567,');
    const s = t.sentences[3];
    const quote = jsonSchema.parse(
      JSON.parse(toJson(t, opts({ range: { startMs: s?.startMs ?? 0, endMs: s?.endMs ?? 0 } }))),
    );
    expect(quote.blocks.map((b) => b.text)).toEqual(['Thank you.']);
    expect(quote.range).toEqual({ startMs: s?.startMs, endMs: s?.endMs });
    const intl = jsonSchema.parse(JSON.parse(toJson(greekArabic(), opts())));
    expect(intl.blocks[1]).toMatchObject({ speaker: 'ليلى حداد', text: 'صباح الخير، كيف حالك؟' });
  });
});

describe('CSV', () => {
  const read = (csv: string): Record<string, string>[] =>
    parseCsv<Record<string, string>>(csv, { bom: true, columns: true, relax_column_count: false });

  it('writes one row per sentence with RFC 4180 quoting', () => {
    const t = makeTranscript([
      { speaker: 'A', text: 'Commas, "quotes" and\nnew lines.' },
      { speaker: 'B', text: 'Plain.' },
    ]);
    const csv = toCsv(t, opts());
    expect(csv.startsWith('\uFEFFstart,end,start_ms,end_ms,speaker,text\r\n')).toBe(true);
    const rows = read(csv);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.end).toMatch(/^\d\d:\d\d:\d\d$/);
    expect(rows[0]).toEqual({
      start: '00:00:00',
      end: rows[0]?.end,
      start_ms: String(t.sentences[0]?.startMs),
      end_ms: String(t.sentences[0]?.endMs),
      speaker: 'Maria Lopez',
      text: 'Commas, "quotes" and\nnew lines.',
    });
    expect(rows[1]?.speaker).toBe('Speaker B');
  });

  it('follows redaction, range and speaker options, and keeps Greek and Arabic', () => {
    const t = interview();
    expect(read(toCsv(t, opts()))[2]?.text).toBe('Call me at ##########, please.');
    expect(read(toCsv(t, opts({ redacted: false })))[2]?.text).toBe('Call me at 5551234567, please.');
    expect(read(toCsv(t, opts({ speakerNames: false }))).map((r) => r.speaker)).toEqual(['', '', '', '']);
    const s = t.sentences[1];
    const quote = read(toCsv(t, opts({ range: { startMs: s?.startMs ?? 0, endMs: s?.endMs ?? 0 } })));
    expect(quote.map((r) => r.text)).toEqual(['The budget is "final", she said.']);
    const intl = read(toCsv(greekArabic(), opts()));
    expect(intl.map((r) => [r.speaker, r.text])).toEqual([
      ['Ελένη Παπαδοπούλου', 'Καλημέρα σας, κύριε δήμαρχε.'],
      ['ليلى حداد', 'صباح الخير، كيف حالك؟'],
    ]);
  });
});
