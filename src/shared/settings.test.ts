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

describe("the reader's video pane size", () => {
  it('starts large, is kept as set, and takes only large, small or hidden', () => {
    expect(defaultSettings.videoPane).toBe('large');
    expect(settingsSchema.parse({ videoPane: 'hidden' }).videoPane).toBe('hidden');
    expect(settingsPatchSchema.parse({ videoPane: 'small' })).toEqual({ videoPane: 'small' });
    expect(settingsPatchSchema.safeParse({ videoPane: 'huge' }).success).toBe(false);
  });
});

describe('bounds on what Settings stores', () => {
  it('refuses a 20 MB preset and a 5,000-deep default, each with a plain message', () => {
    const huge = settingsPatchSchema.safeParse({
      presets: [{ name: 'Huge', options: { prompt: 'x'.repeat(20_000_000) } }],
    });
    expect(huge.success).toBe(false);
    expect(huge.error?.issues[0]?.message).toMatch(/too large/);
    let deep: Record<string, unknown> = {};
    const defaultOptions = deep;
    for (let level = 0; level < 5000; level++) deep = deep.inner = {};
    const nested = settingsPatchSchema.safeParse({ defaultOptions });
    expect(nested.success).toBe(false);
    expect(nested.error?.issues[0]?.message).toMatch(/nest at most 8 levels/);
  });

  it('takes plain http service addresses only for this computer', () => {
    expect(settingsPatchSchema.safeParse({ transcriptionUrlUs: 'http://127.0.0.1:8787' }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ gatewayUrl: 'http://gateway.example.com' }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ catalogUrl: 'https://catalog.example.com' }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ voiceUrl: 'wss://agents.example.com/v1/ws' }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ voiceUrl: 'ws://agents.example.com/v1/ws' }).success).toBe(false);
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
