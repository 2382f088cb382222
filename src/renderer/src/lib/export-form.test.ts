import { describe, expect, it } from 'vitest';
import { applicableOptions, withFormatExtension, wordSpan } from './export-form';
import { buildModel } from './reader-model';

describe('applicableOptions', () => {
  it('shows only what each format can use', () => {
    expect(applicableOptions('docx')).toMatchObject({
      unit: true,
      timestamps: true,
      header: true,
      subtitles: false,
    });
    expect(applicableOptions('csv')).toMatchObject({
      unit: false,
      timestamps: false,
      header: false,
      appendix: false,
    });
    expect(applicableOptions('json')).toMatchObject({ unit: true, timestamps: false, appendix: true });
    expect(applicableOptions('srt')).toMatchObject({
      unit: false,
      subtitles: true,
      speakerLabel: 'Speaker names before captions (NAME:)',
    });
    expect(applicableOptions('vtt').speakerLabel).toBe('Speaker voice tags (<v Name>)');
  });
});

describe('wordSpan', () => {
  it('spans from the first selected word’s start to the last one’s end, in either order', () => {
    const words = ['We', 'signed', 'the', 'contract.'].map((text, i) => ({
      text,
      start: 1000 + i * 500,
      end: 1400 + i * 500,
      confidence: 0.9,
      speaker: 'A',
    }));
    const model = buildModel(
      [{ position: 0, startMs: 1000, endMs: 2900, speaker: 'A', confidence: 0.9, text: 'x', words }],
      [],
    );
    expect(wordSpan(model, 1, 3)).toEqual({ startMs: 1500, endMs: 2900 });
    expect(wordSpan(model, 3, 1)).toEqual({ startMs: 1500, endMs: 2900 });
    expect(wordSpan(model, 0, 99)).toBeUndefined();
  });
});

describe('withFormatExtension', () => {
  it.each([
    ['/home/me/switch-test.docx', 'srt', '/home/me/switch-test.srt'],
    ['/home/me/switch-test.DOCX', 'pdf', '/home/me/switch-test.pdf'],
    ['/home/me/notes', 'md', '/home/me/notes.md'],
    ['/home/me/v1.2 final', 'txt', '/home/me/v1.2 final.txt'],
    ['/home/me/report.srt', 'srt', '/home/me/report.srt'],
    ['/home/me/data.tar', 'csv', '/home/me/data.tar.csv'],
  ] as const)('%s as %s → %s', (path, format, expected) => {
    expect(withFormatExtension(path, format)).toBe(expected);
  });
});
