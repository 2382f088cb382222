import { describe, expect, it } from 'vitest';
import { defaultExportOptions } from './export-model';
import type { ExportOptions } from './export-model';
import { toDocx } from './docx-export';
import { phoneRedacted, phoneUnredacted, richFixture } from './rich-fixture.test-kit';
import { readDocx } from './read-back.test-kit';

const opts = (o: Partial<ExportOptions>): ExportOptions => ({ ...defaultExportOptions, ...o });

describe('toDocx', () => {
  it('writes a title block and one Word paragraph per block with bold renamed speakers', async () => {
    const paras = await readDocx(await toDocx(richFixture(), opts({ unit: 'paragraphs' })));
    expect(paras.find((p) => p.style === 'Title')?.text).toBe('Council meeting interview');
    const texts = paras.map((p) => p.text);
    expect(texts).toContain('Source: interview-2026-11-20.mp3');
    expect(texts).toContain('Date: Nov 20, 2026, 9:30 AM');
    expect(texts).toContain('Duration: 01:01:50');
    expect(texts).toContain('Language: Greek');

    // Transcript blocks are speaker run + timestamp run + text run; the title block has two runs.
    const body = paras.filter((p) => p.runs[0]?.bold && p.runs.length >= 3);
    const speakers = body.map((p) => p.runs[0]?.text);
    expect(speakers).toEqual(['Maria Papadopoulou: ', 'Karim Haddad: ', 'Speaker C: ']);
    // Real paragraphs: each block is its own <w:p>, the timestamp a separate non-bold run.
    const [maria, karim, c] = body;
    expect(maria?.runs[1]).toEqual({ text: '[00:00:01] ', bold: false });
    expect(maria?.text).toContain('Καλημέρα σας από την Αθήνα.');
    expect(karim?.runs[1]?.text).toBe('[00:01:05] ');
    expect(karim?.text).toContain('مرحبا بكم في البرنامج اليوم.');
    // The Arabic paragraph is marked right to left so Word lays it out that way.
    expect(karim?.xml).toMatch(/<w:bidi\/>/);
    expect(karim?.xml).toMatch(/<w:rtl\/>/);
    expect(maria?.xml).not.toMatch(/<w:bidi\/>/);
    expect(c?.runs[1]?.text).toBe('[01:01:40] ');
    // Redacted by default.
    expect(maria?.text).toContain(phoneRedacted);
    expect(maria?.text).not.toContain(phoneUnredacted);
  });

  it('uses unredacted words when asked, and stamps every sentence', async () => {
    const paras = await readDocx(
      await toDocx(richFixture(), opts({ redacted: false, timestamps: { kind: 'sentence' }, unit: 'turns' })),
    );
    const maria = paras.find((p) => p.runs[0]?.text === 'Maria Papadopoulou: ');
    expect(maria?.text).toContain(phoneUnredacted);
    expect(maria?.text).not.toContain(phoneRedacted);
    const stamps = maria?.runs.filter((r) => /^\[\d\d:\d\d:\d\d\] $/.test(r.text)).map((r) => r.text);
    expect(stamps).toEqual(['[00:00:01] ', '[00:00:04] ']);
  });

  it('leaves out speakers, timestamps and header when switched off, and adds the appendix', async () => {
    const paras = await readDocx(
      await toDocx(
        richFixture(),
        opts({ speakerNames: false, timestamps: { kind: 'none' }, header: false, appendix: true }),
      ),
    );
    expect(paras.some((p) => p.style === 'Title')).toBe(false);
    expect(paras.some((p) => p.runs.some((r) => r.bold && r.text.includes('Maria Papadopoulou: ')))).toBe(
      false,
    );
    expect(paras.some((p) => /\[\d\d:\d\d:\d\d\]/.test(p.text))).toBe(false);
    expect(paras.some((p) => p.text === 'Καλημέρα' || p.text.includes('Καλημέρα σας'))).toBe(true);
    const headings = paras.filter((p) => p.style?.startsWith('Heading')).map((p) => p.text);
    expect(headings).toEqual(['Appendix', 'Summary', 'Key phrases', 'Entities']);
    expect(paras.map((p) => p.text)).toContain('council budget');
    expect(paras.map((p) => p.text)).toContain('location: Αθήνα');
  });

  it('stamps every N seconds at the first sentence of each new window', async () => {
    const paras = await readDocx(
      await toDocx(richFixture(), opts({ unit: 'sentences', timestamps: { kind: 'every', seconds: 60 } })),
    );
    const stamps = paras.flatMap((p) =>
      p.runs.filter((r) => /^\[\d\d:\d\d:\d\d\] $/.test(r.text)).map((r) => r.text),
    );
    expect(stamps).toEqual(['[00:00:01] ', '[00:01:05] ', '[01:01:40] ']);
  });

  it('exports only the selected range as a quote', async () => {
    const paras = await readDocx(
      await toDocx(richFixture(), opts({ range: { startMs: 64_000, endMs: 71_000 } })),
    );
    const all = paras.map((p) => p.text).join('\n');
    expect(all).toContain('مرحبا');
    expect(all).not.toContain('Καλημέρα');
    expect(all).not.toContain('Thanks for listening');
  });
});
