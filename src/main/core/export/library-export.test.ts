import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { parseSync, type NodeCue } from 'subtitle';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import { defaultExportSettings, exportFormats, type ExportFormat } from '../../../shared/export-options';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { exportTranscript } from './export-transcript';
import { loadExportTranscript } from './library-export';
import { storeInterview, storedPhone } from './library-fixture.test-kit';
import { pdftotext, readDocx } from './read-back.test-kit';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-library-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let library: Library;
beforeEach(async () => {
  library = new Library(openDatabase(':memory:'), () => Date.UTC(2026, 10, 20));
  await storeInterview(library, 'ferry');
  await library.renameSpeaker('ferry', 'A', 'Maria Lopez');
});

/** What a reader of each file sees, read back with a tool of its own kind. */
async function readBack(format: ExportFormat, bytes: Uint8Array): Promise<string> {
  const text = new TextDecoder().decode(bytes);
  switch (format) {
    case 'docx':
      return (await readDocx(bytes)).map((p) => p.text).join('\n');
    case 'pdf': {
      const file = join(dir, `read-back-${Math.random().toString(36).slice(2)}.pdf`);
      writeFileSync(file, bytes);
      return pdftotext(file);
    }
    case 'srt':
    case 'vtt':
      return parseSync(text)
        .filter((n): n is NodeCue => n.type === 'cue')
        .map((n) => n.data.text)
        .join('\n');
    case 'json':
      return JSON.stringify(JSON.parse(text));
    case 'csv':
      return parseCsv<Record<string, string>>(text, { bom: true, columns: true })
        .map((row) => Object.values(row).join(' | '))
        .join('\n');
    default:
      return text;
  }
}

describe('loadExportTranscript', () => {
  it('gathers names, sentences, paragraphs, unredacted words and the appendix from the library', async () => {
    const t = await loadExportTranscript(library, 'ferry');
    expect(t.title).toBe('Ferry contract interview');
    // The file name only: the folder it sits in is nobody else's business.
    expect(t.sourceName).toBe('ferry.wav');
    expect(t.audioDurationMs).toBe(16_000);
    expect(t.languageCode).toBe('en');
    expect([...t.speakers]).toEqual([
      ['A', 'Maria Lopez'],
      ['B', 'Speaker B'],
    ]);
    expect(t.sentences).toHaveLength(4);
    expect(t.paragraphs).toHaveLength(2);
    expect(t.unredacted?.words.some((w) => w.text === storedPhone.unredacted)).toBe(true);
    expect(t.analyses).toEqual({
      summary: 'The council signed the ferry contract.',
      keyPhrases: ['ferry contract'],
      entities: [{ type: 'date', text: 'March' }],
    });
  });

  it('refuses a transcript that is missing or not finished', async () => {
    await expect(loadExportTranscript(library, 'nope')).rejects.toMatchObject({ code: 'not_found' });
    await library.createJob({
      id: 'running',
      title: 'Still running',
      sourceKind: 'url',
      source: 'https://example.org/a.mp3',
      audioPath: null,
      region: 'us',
      options: {},
      status: 'processing',
    });
    const error = await loadExportTranscript(library, 'running').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerbatimError);
    expect((error as VerbatimError).message).toBe(
      '"Still running" is not finished yet, so there is nothing to export.',
    );
  });
});

describe('every format, from the library', () => {
  for (const format of exportFormats) {
    it(`${format}: shows the renamed speaker and follows the redaction choice`, async () => {
      const t = await loadExportTranscript(library, 'ferry');
      const redacted = await readBack(
        format,
        (await exportTranscript(format, t, defaultExportSettings)).bytes,
      );
      expect(redacted.toLocaleLowerCase()).toContain('maria lopez');
      expect(redacted).toContain(storedPhone.redacted);
      expect(redacted).not.toContain(storedPhone.unredacted);
      const clear = await exportTranscript(format, t, { ...defaultExportSettings, redacted: false });
      const text = await readBack(format, clear.bytes);
      expect(text).toContain(storedPhone.unredacted);
      expect(text).not.toContain(storedPhone.redacted);
      expect(clear.warnings).toEqual([]);
    });
  }
});
