import { beforeEach, describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import { defaultExportSettings, exportFormats } from '../../../shared/export-options';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { exportTranscript } from './export-transcript';
import { loadExportTranscript } from './library-export';
import { storeInterview, storedPhone } from './library-fixture.test-kit';
import { readBack } from './read-back.test-kit';

let library: Library;
beforeEach(async () => {
  library = new Library(openDatabase(':memory:'), () => Date.UTC(2026, 10, 20));
  await storeInterview(library, 'ferry');
  await library.renameSpeaker('ferry', 'A', 'Maria Lopez');
});

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
