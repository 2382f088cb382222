import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { exportLibraryStory } from '../src/main/core/export/library-story-export';
import { openDatabase } from '../src/main/core/library/database';
import { Library } from '../src/main/core/library/library';
import { libraryRedactions } from '../src/main/core/media/redacted-recording';
import { ServiceRedactedAudio } from '../src/main/core/media/service-redacted-audio';
import { generatedTranscript, storeFinished } from './fixtures';
import { percentile, timeMs, timeMsAsync, type Measurement } from './bench-kit';

/**
 * Exporting a story (issue #20: "a story of 200 quotes from 50 transcripts to DOCX and PDF: each
 * under 1 s"), through the real library and story export, saved to disk, against writing the
 * same story's quotes as JSON to disk in the same run. Every output is read back (the DOCX's
 * document has the first and last quote in order; the PDF starts as one) so a bench cannot pass
 * on an empty file.
 */
const transcripts = 50;
const quotesPerTranscript = 4;
const rounds = 5;

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-story-'));
  const db = openDatabase(':memory:');
  try {
    const library = new Library(db);
    const redactions = libraryRedactions(
      library,
      new ServiceRedactedAudio(join(dir, 'redacted-audio'), fetch),
    );
    const story = await library.createStory('Ferry investigation');
    for (let t = 0; t < transcripts; t++) {
      const id = `s${t}`;
      const completed = generatedTranscript(3000, 500 + t);
      await storeFinished(library, id, `Interview ${t + 1}`, completed);
      await library.renameSpeaker(id, 'A', `Source ${t + 1}`);
      if (t % 10 === 0) await library.addTextToStory(story.id, `Part ${t / 10 + 1}`);
      for (let q = 0; q < quotesPerTranscript; q++) {
        const sentence = completed.sentences[10 + q * 20]!;
        const highlight = await library.createHighlight({
          transcriptId: id,
          startMs: sentence.start,
          endMs: sentence.end,
        });
        await library.addQuoteToStory(story.id, highlight.id);
      }
    }
    const full = await library.story(story.id);
    const quotes = full.items.filter((item) => item.kind === 'quote');
    const first = quotes[0]!.text;
    const last = quotes[quotes.length - 1]!.text;
    const json = join(dir, 'story.json');
    const writeJson = (): void => {
      const text = JSON.stringify(full.items);
      // The same quotes written to disk: the least an export must do.
      rmSync(json, { force: true });
      writeFileSync(json, text);
    };

    const measurements: Measurement[] = [];
    for (const format of ['docx', 'pdf'] as const) {
      const ours: number[] = [];
      const baseline: number[] = [];
      const path = join(dir, `story.${format}`);
      for (let round = 0; round < rounds; round++) {
        const timed = await timeMsAsync(() =>
          exportLibraryStory(library, redactions, { story: story.id, format, path, replace: true }),
        );
        ours.push(timed.ms);
        baseline.push(timeMs(writeJson).ms);
      }
      const bytes = readFileSync(path);
      if (format === 'docx') {
        const document = await (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
        const text = document.replace(/<[^>]+>/g, '');
        if (!(text.indexOf(first) >= 0 && text.lastIndexOf(last) > text.indexOf(first)))
          throw new Error('The story DOCX does not hold its quotes in order.');
      } else if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
        throw new Error('The story PDF is not a PDF.');
      // The first round warms the JIT (and, for the PDF, reads the fonts): the median of the rest.
      measurements.push({
        name: `story export: median time to export a story of ${quotes.length} quotes from ${transcripts} transcripts as ${format.toUpperCase()} (${rounds - 1} rounds)`,
        statistic: 'median',
        unit: 'ms',
        ours: percentile(ours.slice(1), 50),
        baseline: percentile(baseline.slice(1), 50),
        baselineLabel: "writing the same story's items as JSON to disk, median",
        targets: [{ of: 'ours', statistic: 'median', comparison: '<', threshold: 1000, unit: 'ms' }],
        notes: { bytes: bytes.length, items: full.items.length },
      });
    }
    return measurements;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
