import { describe, expect, it } from 'vitest';
import {
  defaultExportOptions,
  exportBlocks,
  hhmmss,
  timestampPlan,
  type ExportOptions,
} from './export-model';
import { interview, makeTranscript } from './text-fixtures.test-kit';

const opts = (o: Partial<ExportOptions> = {}): ExportOptions => ({ ...defaultExportOptions, ...o });

describe('hhmmss', () => {
  it('pads hours, minutes and seconds and drops milliseconds', () => {
    expect(hhmmss(0)).toBe('00:00:00');
    expect(hhmmss(3_723_999)).toBe('01:02:03');
    expect(hhmmss(-5)).toBe('00:00:00');
    expect(hhmmss(100 * 3600 * 1000)).toBe('100:00:00');
  });
});

describe('exportBlocks', () => {
  it('groups by sentence, paragraph and speaker turn', () => {
    const t = interview();
    expect(exportBlocks(t, opts({ unit: 'sentences' }))).toHaveLength(4);
    const paragraphs = exportBlocks(t, opts({ unit: 'paragraphs' }));
    expect(paragraphs.map((b) => b.sentences.length)).toEqual([2, 1, 1]);
    expect(paragraphs[0]?.text).toBe('Good morning, everyone. The budget is "final", she said.');
    expect(exportBlocks(t, opts({ unit: 'turns' })).map((b) => b.speaker)).toEqual([
      'Maria Lopez',
      'Speaker B',
      'Maria Lopez',
    ]);
  });

  it('falls back to speaker turns when the service returned no paragraphs', () => {
    const t = { ...interview(), paragraphs: [] };
    expect(exportBlocks(t, opts({ unit: 'paragraphs' })).map((b) => b.sentences.length)).toEqual([2, 1, 1]);
  });

  it('uses renamed speakers, labels for unnamed ones, and no names when turned off', () => {
    const t = makeTranscript([
      { speaker: 'A', text: 'One.' },
      { speaker: 'C', text: 'Two.' },
      { speaker: null, text: 'Three.' },
    ]);
    expect(exportBlocks(t, opts({ unit: 'sentences' })).map((b) => b.speaker)).toEqual([
      'Maria Lopez',
      'Speaker C',
      null,
    ]);
    const off = exportBlocks(t, opts({ unit: 'sentences', speakerNames: false }));
    expect(off.map((b) => b.speaker)).toEqual([null, null, null]);
    expect(off.flatMap((b) => b.sentences.map((s) => s.speaker))).toEqual([null, null, null]);
  });

  it('keeps redacted text by default and uses the unredacted words when asked', () => {
    const t = interview();
    const redacted = exportBlocks(t, opts({ unit: 'sentences' }))[2];
    expect(redacted?.text).toBe('Call me at ##########, please.');
    const clear = exportBlocks(t, opts({ unit: 'sentences', redacted: false }))[2];
    expect(clear?.text).toBe('Call me at 5551234567, please.');
    expect(clear?.sentences[0]?.words.map((w) => w.text)).toContain('5551234567,');
    // Without unredacted words there is nothing to reveal.
    const none = exportBlocks(
      { ...t, unredacted: undefined },
      opts({ unit: 'sentences', redacted: false }),
    )[2];
    expect(none?.text).toBe('Call me at ##########, please.');
  });

  it('exports only the words inside a range', () => {
    const t = interview();
    const words = t.sentences[1]?.words ?? [];
    const from = words[2]?.start ?? 0; // "is"
    const to = words[3]?.end ?? 0; // '"final",'
    const blocks = exportBlocks(t, opts({ range: { startMs: from, endMs: to } }));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.text).toBe('is "final",');
    expect(blocks[0]?.startMs).toBe(from);
    expect(blocks[0]?.endMs).toBe(to);
  });
});

describe('timestampPlan', () => {
  it('stamps the first sentence at or after every N seconds', () => {
    const t = makeTranscript(
      Array.from({ length: 12 }, (_, i) => ({ speaker: 'A', text: `Sentence number ${i} here.` })),
    );
    const o = opts({ unit: 'sentences', timestamps: { kind: 'every', seconds: 5 } });
    const blocks = exportBlocks(t, o);
    const stamps = timestampPlan(blocks, o).flatMap((p) => p.sentences);
    const stamped = stamps.filter((s): s is number => s !== null);
    expect(stamped[0]).toBe(blocks[0]?.startMs);
    const buckets = stamped.map((ms) => Math.floor(ms / 5000));
    expect(new Set(buckets).size).toBe(buckets.length);
    expect(stamped.length).toBeGreaterThan(1);
    expect(stamped.length).toBeLessThan(stamps.length);
  });

  it('stamps paragraphs or sentences, or nothing', () => {
    const t = interview();
    for (const kind of ['none', 'paragraph', 'sentence'] as const) {
      const o = opts({ timestamps: { kind } });
      const plan = timestampPlan(exportBlocks(t, o), o);
      expect(plan.some((p) => p.block !== null)).toBe(kind === 'paragraph');
      expect(plan.some((p) => p.sentences.some((s) => s !== null))).toBe(kind === 'sentence');
    }
  });
});
