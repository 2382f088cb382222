import { describe, expect, it } from 'vitest';
import { defaultExportSettings, exportOptionsSchema, rememberedExportSettings } from './export-options';

describe('export options', () => {
  it('default to paragraphs stamped at each block, names and header on, and 42×2 captions of 7 s at most', () => {
    expect(defaultExportSettings).toEqual({
      unit: 'paragraphs',
      timestamps: { kind: 'paragraph' },
      speakerNames: true,
      header: true,
      appendix: false,
      redacted: true,
      subtitles: { charsPerLine: 42, maxLines: 2, maxDurationMs: 7000, minGapMs: 80 },
    });
  });

  it('refuse what no export can do, in words', () => {
    const refused = (input: unknown): string =>
      exportOptionsSchema.safeParse(input).error?.issues[0]?.message ?? 'accepted';
    expect(refused({ timestamps: { kind: 'every', seconds: 0 } })).toBe(
      'Timestamps can come at most every second.',
    );
    expect(refused({ range: { startMs: 5000, endMs: 1000 } })).toBe('The excerpt must end after it starts.');
    expect(refused({ subtitles: { maxLines: 3 } })).toBe('Captions can have at most 2 lines.');
    expect(refused({ subtitles: { charsPerLine: 10 } })).toBe('A caption line needs at least 20 characters.');
    expect(refused({ colour: 'red' })).not.toBe('accepted');
  });

  it('open a format with what was used for it last, never with an old excerpt', () => {
    const srt = { ...defaultExportSettings, speakerNames: false, range: { startMs: 1, endMs: 2 } };
    expect(rememberedExportSettings({ srt }, 'srt')).toEqual({ ...srt, range: undefined });
    expect(rememberedExportSettings({ srt }, 'docx')).toEqual(defaultExportSettings);
    expect(rememberedExportSettings(undefined, 'pdf')).toEqual(defaultExportSettings);
  });
});
