import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSync, type NodeCue } from 'subtitle';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultExportSettings, exportFormats } from '../../../shared/export-options';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { exportBatch } from './export-batch';
import { exportTranscript, previewExport } from './export-transcript';
import { loadExportTranscript } from './library-export';
import { storeInterview, storedPhone } from './library-fixture.test-kit';
import { readBack } from './read-back.test-kit';

/**
 * Every way out of the library carries the journalist's corrections: each format, the
 * preview, a batch export, the original (unredacted) words and the subtitles' timing, after
 * edits that replace, insert and delete words.
 */
const dir = mkdtempSync(join(tmpdir(), 'verbatim-corrected-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Words the corrections bring in, and words they take out (single words: a PDF may wrap lines). */
const added = ['harbour', 'finally', 'negotiation', 'tomorrow'];
const removed = ['coming', 'later', 'thank'];
const longRetype =
  'The harbour ferry contract was finally signed in early March after a long and very difficult negotiation with the regional transport authority.';

let library: Library;
beforeEach(async () => {
  library = new Library(openDatabase(':memory:'), () => Date.UTC(2026, 10, 20));
  await storeInterview(library, 'ferry');
  await library.renameSpeaker('ferry', 'A', 'Maria Lopez');
  // Deletes words, replaces the one beside the redacted phone number, inserts many words.
  await library.edit('ferry', { kind: 'text', from: 0, count: 1, text: 'Good morning.' });
  await library.edit('ferry', {
    kind: 'text',
    from: 1,
    count: 1,
    text: `You can call me on ${storedPhone.redacted} tomorrow.`,
  });
  await library.edit('ferry', { kind: 'text', from: 2, count: 1, text: longRetype });
});

describe('exports of a corrected transcript', () => {
  for (const format of exportFormats) {
    it(`${format}: carries the corrected words, not the replaced ones, redacted and as said`, async () => {
      const t = await loadExportTranscript(library, 'ferry');
      const redacted = await readBack(
        format,
        (await exportTranscript(format, t, defaultExportSettings)).bytes,
      );
      for (const word of added) expect(redacted).toContain(word);
      for (const word of removed) expect(redacted).not.toContain(word);
      expect(redacted).toContain(storedPhone.redacted);

      // The original words: the phone number comes back, the corrected word beside it stays.
      const clear = await readBack(
        format,
        (await exportTranscript(format, t, { ...defaultExportSettings, redacted: false })).bytes,
      );
      expect(clear).toContain(storedPhone.unredacted);
      expect(clear).toContain('tomorrow');
      expect(clear).not.toContain('later');
    });
  }

  it('JSON says which words were corrected, and how many', async () => {
    const t = await loadExportTranscript(library, 'ferry');
    const doc = JSON.parse(
      new TextDecoder().decode((await exportTranscript('json', t, defaultExportSettings)).bytes),
    ) as {
      correctedWords: number;
      blocks: { sentences: { words: { text: string; corrected: boolean; confidence: number }[] }[] }[];
    };
    const words = doc.blocks.flatMap((b) => b.sentences.flatMap((s) => s.words));
    const corrected = words.filter((w) => w.corrected);
    expect(doc.correctedWords).toBe(corrected.length);
    expect(corrected.map((w) => w.text)).toEqual([
      'morning.',
      'tomorrow.',
      'harbour',
      'finally',
      'early',
      'March',
      'after',
      'a',
      'long',
      'and',
      'very',
      'difficult',
      'negotiation',
      'with',
      'the',
      'regional',
      'transport',
      'authority.',
    ]);
    expect(corrected.every((w) => w.confidence === 1)).toBe(true);
    expect(words.find((w) => w.text === 'Good')).toMatchObject({ corrected: false, confidence: 0.9 });

    // Undone, the file says so too: no corrected word left.
    for (let i = 0; i < 3; i++) await library.undo('ferry');
    const undone = JSON.parse(
      new TextDecoder().decode(
        (await exportTranscript('json', await loadExportTranscript(library, 'ferry'), defaultExportSettings))
          .bytes,
      ),
    ) as { correctedWords: number };
    expect(undone.correctedWords).toBe(0);
  });

  it.each(['srt', 'vtt'] as const)(
    '%s: cues stay inside the audio, in order, within their limits, and hold the corrected words in order',
    async (format) => {
      const t = await loadExportTranscript(library, 'ferry');
      const so = defaultExportSettings.subtitles;
      const result = await exportTranscript(format, t, defaultExportSettings);
      const cues = parseSync(new TextDecoder().decode(result.bytes))
        .filter((n): n is NodeCue => n.type === 'cue')
        .map((n) => n.data);
      expect(cues.length).toBeGreaterThanOrEqual(4);
      let previousEnd = -Infinity;
      const spoken: string[] = [];
      for (const cue of cues) {
        expect(cue.start).toBeGreaterThanOrEqual(0);
        expect(cue.end).toBeGreaterThan(cue.start);
        expect(cue.end).toBeLessThanOrEqual(t.audioDurationMs!);
        expect(cue.end - cue.start).toBeLessThanOrEqual(so.maxDurationMs);
        expect(cue.start - previousEnd).toBeGreaterThanOrEqual(so.minGapMs);
        previousEnd = cue.end;
        const lines = cue.text.split('\n');
        expect(lines.length).toBeLessThanOrEqual(so.maxLines);
        for (const line of lines) {
          const words = line
            .replace(/^<v [^>]*>|<\/v>$/g, '')
            .replace(/^(MARIA LOPEZ|SPEAKER B|Maria Lopez|Speaker B): /, '');
          expect(line.replace(/^<v [^>]*>|<\/v>$/g, '').length).toBeLessThanOrEqual(so.charsPerLine);
          spoken.push(...words.split(' ').filter(Boolean));
        }
      }
      const sentences = await library.sentences('ferry');
      expect(spoken).toEqual(sentences.flatMap((s) => s.words.map((w) => w.text)));
      // Twenty-three words in three seconds read too fast: said, not hidden.
      expect(result.warnings.join(' ')).toMatch(/faster to read than/);
    },
  );

  it('the preview shows the corrected words, as text and as the page a DOCX or PDF will hold', async () => {
    const t = await loadExportTranscript(library, 'ferry');
    for (const format of ['txt', 'docx', 'pdf', 'md'] as const) {
      const page = previewExport(format, t, defaultExportSettings).lines.join('\n');
      expect(page, format).toContain('Good morning.');
      expect(page, format).toContain('tomorrow');
      expect(page, format).toContain('finally');
      for (const word of removed) expect(page, format).not.toContain(word);
    }
  });

  it('a batch export writes the corrected words of each transcript', async () => {
    await storeInterview(library, 'untouched', 'Untouched interview');
    const folder = mkdtempSync(join(dir, 'batch-'));
    const items = await exportBatch({
      library,
      ids: ['ferry', 'untouched'],
      format: 'txt',
      options: defaultExportSettings,
      folder,
    });
    expect(items.map((item) => item.ok)).toEqual([true, true]);
    const corrected = readFileSync(items[0]!.path!, 'utf8');
    const untouched = readFileSync(items[1]!.path!, 'utf8');
    expect(corrected).toContain('Good morning.');
    expect(corrected).toContain(longRetype);
    expect(corrected).not.toContain('thank you for coming');
    expect(untouched).toContain('Good morning, thank you for coming.');
  });
});
