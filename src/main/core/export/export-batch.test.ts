import { describe, expect, it } from 'vitest';
import { exportFileName, withExtension } from './export-batch';

describe('exportFileName', () => {
  it('makes a name every desktop system accepts from any title', () => {
    expect(exportFileName('Ferry contract interview', 'docx')).toBe('Ferry contract interview.docx');
    expect(exportFileName('Q&A: budget / vote? <draft>', 'pdf')).toBe('Q&A- budget - vote- -draft.pdf');
    expect(exportFileName('..hidden. ', 'txt')).toBe('hidden.txt');
    expect(exportFileName('Συνέντευξη 采访', 'md')).toBe('Συνέντευξη 采访.md');
    expect(exportFileName('\u0000\u0007', 'csv')).toBe('transcript.csv');
    expect(exportFileName('x'.repeat(300), 'srt')).toHaveLength(124);
  });

  it('adds the format’s extension to a typed path only when it is missing', () => {
    expect(withExtension('/tmp/a', 'vtt')).toBe('/tmp/a.vtt');
    expect(withExtension('/tmp/a.VTT', 'vtt')).toBe('/tmp/a.VTT');
    expect(withExtension('/tmp/a.txt', 'json')).toBe('/tmp/a.txt.json');
  });
});
