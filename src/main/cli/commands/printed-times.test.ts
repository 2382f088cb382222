import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Segment } from '../../../shared/library';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCliProcess } from '../cli-process.test-kit';
import { ferryMoment, storeTimedTranscript } from '../timed-interview.test-kit';

/**
 * What the command line prints, given back to it (issue #31), each command a real child process
 * with its output piped: the time show prints before a sentence, given to highlight, takes that
 * sentence and never the last word of the one before; export --range writes whole sentences;
 * the paragraph number show prints is the one revert --paragraph reverts.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-printed-times-'));
const cli = (...args: string[]) => runCliProcess(args, { VERBATIM_DATA_DIR: dataDir });

/** Paragraph 1 is the first sentence, 2 the next two, 3 the question. */
const paragraphs = [
  { startMs: 34_900, endMs: 37_415 },
  { startMs: 37_744, endMs: 43_900 },
  { startMs: 44_250, endMs: 46_800 },
];

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const library = new Library(db);
  await storeTimedTranscript(library, 'ferry', ferryMoment);
  await storeTimedTranscript(library, 'paragraphs', ferryMoment, paragraphs);
  db.close();
});

/** The time show prints before the line holding `text`. */
function printedBefore(shown: string, text: string): string {
  const line = shown.split('\n').find((candidate) => candidate.includes(text));
  const time = /^\[(\d\d:\d\d:\d\d)\]/.exec(line ?? '')?.[1];
  if (!time) throw new Error(`show printed no line with a time holding "${text}":\n${shown}`);
  return time;
}

describe('times the command line prints, given back to it', () => {
  it('highlight --from a time show printed takes exactly that sentence, and its own printed time takes it again', async () => {
    const shown = await cli('show', 'ferry');
    expect(shown.code, shown.stderr).toBe(0);
    const from = printedBefore(shown.stdout, 'Frankly,');
    const to = printedBefore(shown.stdout, 'We had to act');
    expect([from, to]).toEqual(['00:00:37', '00:00:42']);

    const made = await cli('highlight', 'ferry', '--from', from, '--to', to);
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect(made.stdout).toBe(
      [
        'Highlighted 00:00:37–00:00:40 of "Ferry interview" as Quote (highlight 1):',
        '  [00:00:37] Speaker B: “Frankly, the old ferry was a damn disgrace.”',
        '',
      ].join('\n'),
    );
    // The quote's printed span, given back, is the same quote.
    const again = await cli('highlight', 'ferry', '--from', '00:00:37', '--to', '00:00:40', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      startMs: 37_744,
      endMs: 40_700,
      text: 'Frankly, the old ferry was a damn disgrace.',
    });
  }, 180_000);

  it('export --range writes whole sentences, says so, and never ends in the middle of one', async () => {
    const out = join(dataDir, 'excerpt.txt');
    const run = await cli(
      'export',
      'ferry',
      '--format',
      'txt',
      '--out',
      out,
      '--unit',
      'sentences',
      '--timestamps',
      'sentence',
      '--no-header',
      '--range',
      '00:00:37-00:00:45',
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [`Saved ${out}`, 'The excerpt runs from 00:00:37 to 00:00:46, in whole sentences.', ''].join('\n'),
    );
    expect(readFileSync(out, 'utf8')).toBe(
      [
        'SPEAKER B: [00:00:37] Frankly, the old ferry was a damn disgrace.',
        '',
        'SPEAKER B: [00:00:42] We had to act quickly.',
        '',
        'SPEAKER A: [00:00:44] When does the new ferry service start?',
        '',
      ].join('\n'),
    );
    const help = await cli('export', '--help');
    expect(help.stdout).toContain('only the whole sentences said between two moments');
  }, 180_000);

  it('show numbers the paragraphs as revert counts them, so its number reverts that paragraph', async () => {
    for (const change of ['damn=darn', 'service=servise']) {
      const edited = await cli('edit', 'paragraphs', '--replace', change);
      expect(edited.code, edited.stderr).toBe(0);
    }
    const shown = await cli('show', 'paragraphs');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.split('\n').slice(2)).toEqual([
      'Paragraph 1',
      '[00:00:34] Speaker B: I understand the frustration.',
      '',
      'Paragraph 2',
      '[00:00:37] Speaker B: Frankly, the old ferry was a darn disgrace.',
      '[00:00:42] Speaker B: We had to act quickly.',
      '',
      'Paragraph 3',
      '[00:00:44] Speaker A: When does the new ferry servise start?',
      '',
    ]);
    const json = JSON.parse((await cli('show', 'paragraphs', '--json')).stdout) as {
      sentences: (Segment & { paragraph: number | null })[];
    };
    const corrected = json.sentences.find((sentence) => sentence.text.includes('darn'));
    expect(json.sentences.map((sentence) => sentence.paragraph)).toEqual([1, 2, 2, 3]);

    const reverted = await cli('revert', 'paragraphs', '--paragraph', String(corrected?.paragraph));
    expect(reverted.code, reverted.stderr).toBe(0);
    const after = (await cli('show', 'paragraphs')).stdout;
    expect(after).toContain('[00:00:37] Speaker B: Frankly, the old ferry was a damn disgrace.');
    expect(after).toContain('[00:00:44] Speaker A: When does the new ferry servise start?');
  }, 180_000);
});
