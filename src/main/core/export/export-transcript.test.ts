import { parse as parseCsv } from 'csv-parse/sync';
import { parseSync, type NodeCue } from 'subtitle';
import { describe, expect, it } from 'vitest';
import { defaultExportSettings, type ExportSettings } from '../../../shared/export-options';
import type { Segment } from '../../../shared/library';
import { exportTranscript, previewExport } from './export-transcript';
import { readDocx } from './read-back.test-kit';
import { richFixture } from './rich-fixture.test-kit';
import { interview, makeTranscript } from './text-fixtures.test-kit';

const settings = (o: Partial<ExportSettings> = {}): ExportSettings => ({ ...defaultExportSettings, ...o });
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function cues(text: string): NodeCue['data'][] {
  return parseSync(text)
    .filter((n): n is NodeCue => n.type === 'cue')
    .map((n) => n.data);
}

function oneSentence(text: string, speaker = 'A'): Segment {
  return {
    position: 0,
    startMs: 0,
    endMs: 3000,
    speaker,
    confidence: 0.9,
    text,
    words: [{ text, start: 0, end: 3000, confidence: 0.9, speaker }],
  };
}

describe('exportTranscript', () => {
  it('guards spreadsheet cells that would run as formulas (read back by a CSV parser)', async () => {
    const t = makeTranscript([
      { speaker: 'A', text: '=HYPERLINK("http://x.example","click")' },
      { speaker: 'A', text: '+44 20 7946 0000 is the number.' },
      { speaker: 'A', text: '-5 degrees today.' },
      { speaker: 'A', text: '@mayor replied.' },
      { speaker: 'A', text: 'A plain sentence = fine.' },
    ]);
    const { bytes } = await exportTranscript('csv', t, settings());
    const rows = parseCsv<Record<string, string>>(decode(bytes), { bom: true, columns: true });
    expect(rows.map((r) => r.text)).toEqual([
      `'=HYPERLINK("http://x.example","click")`,
      "'+44 20 7946 0000 is the number.",
      "'-5 degrees today.",
      "'@mayor replied.",
      'A plain sentence = fine.',
    ]);
    // Tab and carriage return lead cells too; a speaker's name is guarded like the text.
    const names = makeTranscript([{ speaker: 'A', text: 'Hello.' }], { speakers: new Map([['A', '\tTab']]) });
    const named = parseCsv<Record<string, string>>(
      decode((await exportTranscript('csv', names, settings())).bytes),
      {
        bom: true,
        columns: true,
      },
    );
    expect(named[0]?.speaker).toBe("'\tTab");
  });

  it('keeps subtitle cues of a range at their place in the recording', async () => {
    const t = interview();
    const s = t.sentences[2]!;
    for (const format of ['srt', 'vtt'] as const) {
      const { bytes } = await exportTranscript(
        format,
        t,
        settings({ range: { startMs: s.startMs, endMs: s.endMs } }),
      );
      const parsed = cues(decode(bytes));
      expect(parsed.length).toBeGreaterThan(0);
      expect(parsed[0]?.start).toBe(s.startMs);
      expect(parsed.at(-1)!.end).toBeLessThanOrEqual(s.endMs + 1000);
    }
  });

  it('applies the subtitle options and warns about captions too fast to read', async () => {
    const t = makeTranscript([
      {
        speaker: 'A',
        text: 'Extraordinarily rapid announcements overwhelm absolutely everybody listening.',
        wordMs: 70,
      },
      { speaker: 'A', text: 'Slow.', pauseMs: 100 },
    ]);
    const narrow = await exportTranscript(
      'srt',
      t,
      settings({
        speakerNames: false,
        subtitles: { charsPerLine: 20, maxLines: 1, maxDurationMs: 7000, minGapMs: 80 },
      }),
    );
    const parsed = cues(decode(narrow.bytes));
    for (const c of parsed) expect(c.text.length).toBeLessThanOrEqual(20);
    expect(parsed.some((c) => /MARIA/.test(c.text))).toBe(false);
    expect(narrow.warnings).toHaveLength(1);
    expect(narrow.warnings[0]).toMatch(
      /^\d+ captions? (is|are) faster to read than 17 characters a second: caption \d+ \(\d+(\.\d)?\)/,
    );
    const vtt = await exportTranscript('vtt', interview(), settings());
    expect(vtt.warnings).toEqual([]);
  });

  it('says when unredacted text was asked for but the service never kept it', async () => {
    const t = { ...interview(), unredacted: undefined };
    const { warnings, bytes } = await exportTranscript('txt', t, settings({ redacted: false }));
    expect(warnings).toEqual([expect.stringContaining('no unredacted text') as string]);
    expect(decode(bytes)).toContain('##########');
  });

  it('says when the range holds no speech', async () => {
    const { warnings } = await exportTranscript(
      'md',
      interview(),
      settings({ range: { startMs: 900_000, endMs: 901_000 } }),
    );
    expect(warnings).toEqual([
      'Nothing was said between 00:15:00 and 00:15:01 (the recording is 00:00:07 long): the export has no transcript text.',
    ]);
  });

  it('exports a Chinese PDF without a CJK font, with a warning that names the fix', async () => {
    const t = { ...richFixture(), sentences: [oneSentence('今天的会议讨论了预算。')], paragraphs: [] };
    const without = await exportTranscript('pdf', t, settings(), { cjkFonts: null });
    expect(Buffer.from(without.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(without.warnings).toHaveLength(1);
    expect(without.warnings[0]).toContain('fonts-noto-cjk');
    // Latin text needs no CJK font, and Word uses the reader's own fonts: no warning either way.
    expect((await exportTranscript('pdf', richFixture(), settings(), { cjkFonts: null })).warnings).toEqual(
      [],
    );
    expect((await exportTranscript('docx', t, settings(), { cjkFonts: null })).warnings).toEqual([]);
  });

  it('writes Greek, Arabic and Chinese into the Word XML as text', async () => {
    const t = {
      ...richFixture(),
      sentences: [
        ...richFixture().sentences.slice(1, 3),
        { ...oneSentence('我们明天投票。', 'C'), startMs: 80_000, endMs: 82_000, position: 3 },
      ],
      paragraphs: [],
      speakers: new Map([
        ['A', 'Ελένη'],
        ['B', 'ليلى حداد'],
        ['C', '王小明'],
      ]),
    };
    const paras = await readDocx((await exportTranscript('docx', t, settings({ unit: 'turns' }))).bytes);
    const body = paras.filter((p) => p.runs[0]?.bold && p.runs.length >= 3);
    expect(body.map((p) => p.runs[0]?.text)).toEqual(['Ελένη: ', 'ليلى حداد: ', '王小明: ']);
    expect(body[0]?.text).toContain('Καλημέρα σας από την Αθήνα.');
    expect(body[1]?.text).toContain('مرحبا بكم في البرنامج اليوم.');
    expect(body[2]?.text).toContain('我们明天投票。');
  });
});

describe('previewExport', () => {
  it('shows a text format’s own first lines, within a page', () => {
    const long = makeTranscript(
      Array.from({ length: 200 }, (_, i) => ({
        speaker: i % 7 === 0 ? 'B' : 'A',
        text: `Sentence ${i} about the budget.`,
      })),
    );
    const md = previewExport('md', long, settings());
    expect(md.lines[0]).toBe('# Council meeting');
    expect(md.lines.length).toBeLessThanOrEqual(48);
    const srt = previewExport('srt', long, settings());
    expect(srt.lines.slice(0, 2)).toEqual([
      '1',
      expect.stringMatching(/^00:00:00,\d{3} --> 00:00:0\d,\d{3}$/) as string,
    ]);
    const csv = previewExport('csv', long, settings());
    expect(csv.lines[0]).toBe('start,end,start_ms,end_ms,speaker,text');
  });

  it('lays out page one of a Word or PDF export as plain text, with the PDF’s warnings', () => {
    const preview = previewExport('docx', richFixture(), settings());
    expect(preview.lines.slice(0, 3)).toEqual([
      'Council meeting interview',
      'Source: interview-2026-11-20.mp3',
      'Date: Nov 20, 2026, 9:30 AM',
    ]);
    // Wrapped to the page's width, as Word and the PDF wrap it.
    expect(preview.lines[6]).toBe(
      'Maria Papadopoulou: [00:00:01] Good morning, my number is #### today. Καλημέρα σας από την',
    );
    expect(preview.lines[7]).toBe('Αθήνα.');
    for (const line of preview.lines) expect(line.length).toBeLessThanOrEqual(90);
    const chinese = { ...richFixture(), sentences: [oneSentence('今天的会议讨论了预算。')], paragraphs: [] };
    expect(previewExport('pdf', chinese, settings(), { cjkFonts: null }).warnings[0]).toContain(
      'fonts-noto-cjk',
    );
    expect(previewExport('docx', chinese, settings(), { cjkFonts: null }).warnings).toEqual([]);
  });
});
