import fc from 'fast-check';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Highlight } from '../../../shared/highlights';
import {
  timedTranscripts,
  typedSeconds,
  typedTimes,
  type TimedSentence,
} from '../../../shared/timed-transcript.test-kit';
import { rangeOfTypedTimes, sentencesInRange, wordsInRange } from '../../../shared/time-range-words';
import { highlightedWords } from '../../../renderer/src/lib/highlight-logic';
import { buildModel } from '../../../renderer/src/lib/reader-model';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCli } from '../run-cli';
import { storeTimedTranscript } from '../timed-interview.test-kit';

/**
 * Times into words, the seam of issue #31: over generated transcripts (sentences a moment apart,
 * words that overlap or leave gaps), the times `show` prints and any times typed, given to
 * `highlight --from --to` and `export --range`. Each command runs through the command line's
 * own code in this process (the child-process tests in highlight.test.ts and export.test.ts
 * cover the process itself), so fast-check can try many transcripts.
 */

async function storeTranscript(sentences: readonly TimedSentence[]): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-time-range-'));
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  await storeTimedTranscript(new Library(db), 't', sentences);
  db.close();
  return dataDir;
}

async function cli(dataDir: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTty: false,
    env: { VERBATIM_DATA_DIR: dataDir },
  });
  return { code, out: out.join('\n'), err: err.join('') };
}

/** The sentence texts an `export --range` wrote, through its JSON format. */
async function exportedSentences(dataDir: string, range: string, name: string): Promise<string[] | string> {
  const path = join(dataDir, `${name}.json`);
  const run = await cli(dataDir, 'export', 't', '--format', 'json', '--out', path, '--range', range);
  if (run.code !== 0) return run.err;
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { blocks: { sentences: { text: string }[] }[] };
  return doc.blocks.flatMap((block) => block.sentences.map((sentence) => sentence.text));
}

const runs = { numRuns: 25 };

describe('times to words on the command line', () => {
  it('a sentence’s time as show prints it, given back, highlights and exports exactly that sentence', async () => {
    await fc.assert(
      fc.asyncProperty(timedTranscripts, async (sentences) => {
        const dataDir = await storeTranscript(sentences);
        const shown = await cli(dataDir, 'show', 't');
        const printed = shown.out
          .split('\n')
          .filter((line) => line.startsWith('['))
          .map((line) => line.slice(1, 9));
        expect(printed).toHaveLength(sentences.length);
        // After the last sentence: a whole second past its end.
        const end = String(Math.floor(sentences.at(-1)!.endMs / 1000) + 1);
        for (const [index, sentence] of sentences.entries()) {
          const from = printed[index]!;
          // Two sentences printed at one second cannot be told apart by their time.
          if (from === printed[index - 1] || from === printed[index + 1]) continue;
          const to = printed[index + 1] ?? end;
          const made = await cli(dataDir, 'highlight', 't', '--from', from, '--to', to, '--json');
          expect(made.code, made.err).toBe(0);
          expect((JSON.parse(made.out) as Highlight).text).toBe(sentence.text);
          expect(await exportedSentences(dataDir, `${from}-${to}`, `sentence-${index}`)).toEqual([
            sentence.text,
          ]);
        }
      }),
      runs,
    );
  }, 180_000);

  it('any typed range takes the words mostly inside it, alike in the command line, the core and the reader, and exports their whole sentences', async () => {
    const transcriptsAndRanges = timedTranscripts.chain((sentences) => {
      const lastMs = sentences.at(-1)!.endMs + 1500;
      return fc.tuple(fc.constant(sentences), typedTimes(lastMs), typedTimes(lastMs));
    });
    await fc.assert(
      fc.asyncProperty(
        transcriptsAndRanges.filter(([, from, to]) => to.ms > from.ms),
        async ([sentences, from, to]) => {
          const dataDir = await storeTranscript(sentences);
          const words = sentences.flatMap((sentence) => sentence.words);
          const made = await cli(
            dataDir,
            'highlight',
            't',
            '--from',
            typedSeconds(from),
            '--to',
            typedSeconds(to),
            '--json',
          );
          const range = rangeOfTypedTimes(sentences, from, to);
          const expected = wordsInRange(words, range);
          // Never a word mostly outside what was typed (a typed time covers its last digit)…
          const typedEnd = to.ms + to.precisionMs;
          for (const word of expected)
            expect(Math.min(word.end, typedEnd) - Math.max(word.start, from.ms)).toBeGreaterThan(
              (word.end - word.start) / 2,
            );
          // …and every word said wholly between the typed times.
          for (const word of words)
            if (word.start >= from.ms + from.precisionMs && word.end <= to.ms)
              expect(expected).toContain(word);
          if (expected.length === 0) {
            expect(made.code).toBe(2);
            expect(made.err).toContain('Nothing is said between');
            return;
          }
          expect(made.code, made.err).toBe(0);
          const highlight = JSON.parse(made.out) as Highlight;
          expect(highlight.text).toBe(expected.map((word) => word.text).join(' '));
          // The reader paints exactly the stored highlight's words.
          const db = openDatabase(join(dataDir, 'library.sqlite'));
          const model = buildModel(await new Library(db).sentences('t'), []);
          db.close();
          const painted = [...highlightedWords(model, [highlight], () => 'yellow').keys()].sort(
            (a, b) => a - b,
          );
          expect(painted).toEqual(expected.map((word) => words.indexOf(word)));
          // export --range writes the whole sentences those words are in.
          expect(
            await exportedSentences(dataDir, `${typedSeconds(from)}-${typedSeconds(to)}`, 'range'),
          ).toEqual(sentencesInRange(sentences, range).map((sentence) => sentence.text));
        },
      ),
      runs,
    );
  }, 180_000);
});
