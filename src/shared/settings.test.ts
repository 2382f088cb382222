import { describe, expect, it } from 'vitest';
import { defaultSettings, settingsPatchSchema, settingsSchema } from './settings';

describe('settingsPatchSchema', () => {
  it('keeps a patch to what it names, so saving one setting leaves the others alone', () => {
    expect(settingsPatchSchema.parse({ region: 'eu' })).toEqual({ region: 'eu' });
    expect(settingsPatchSchema.parse({})).toEqual({});
  });

  it('still checks what it names, and refuses unknown settings', () => {
    expect(settingsPatchSchema.safeParse({ transcriptionUrlUs: 'not an address' }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ transcriptionUrlUs: '' }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ apiKey: 'x' }).success).toBe(false);
  });
});

describe('exportOptions', () => {
  it('remembers options per format, checked by the export rules', () => {
    const saved = settingsSchema.parse({ exportOptions: { srt: { subtitles: { charsPerLine: 32 } } } });
    expect(saved.exportOptions.srt?.subtitles).toEqual({
      charsPerLine: 32,
      maxLines: 2,
      maxDurationMs: 7000,
      minGapMs: 80,
    });
    expect(saved.exportOptions.docx).toBeUndefined();
    expect(defaultSettings.exportOptions).toEqual({});
    expect(
      settingsPatchSchema.safeParse({ exportOptions: { srt: { subtitles: { maxLines: 3 } } } }).success,
    ).toBe(false);
    expect(settingsPatchSchema.safeParse({ exportOptions: { rtf: {} } }).success).toBe(false);
  });
});
