import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Segment } from '../../../shared/library';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCliProcess } from '../cli-process.test-kit';
import { misheardLines, storeMisheardInterview } from '../corrections-fixture.test-kit';
import { firstOccurrence, parseReplacement } from './edit';
import { UsageError } from '../usage-error';

/**
 * Corrections from the command line, each run a real child process with its output piped:
 * edit (find and replace), show and search reading the corrected words, history, undo, redo
 * and revert.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-edit-'));
const cli = (...args: string[]) => runCliProcess(args, { VERBATIM_DATA_DIR: dataDir });

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const library = new Library(db);
  await storeMisheardInterview(library, 'council');
  await storeMisheardInterview(library, 'usage');
  await library.createJob({
    id: 'running',
    title: 'Still transcribing',
    sourceKind: 'file',
    source: '/recordings/running.wav',
    audioPath: null,
    region: 'us',
    options: {},
    status: 'processing',
  });
  db.close();
});

/** The sentence lines `show` prints, without the job line and the paragraph numbers. */
async function shown(id: string): Promise<string[]> {
  const run = await cli('show', id);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((line) => line.startsWith('['));
}

describe('correcting from the command line', () => {
  it('edit replaces the first occurrence only, says what changed and how to undo it, and show prints the corrected text', async () => {
    const run = await cli('edit', 'council', '--replace', 'Brenan=Brennan');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        'Replaced “Brenan” with “Brennan” in "Harbour council":',
        '  - [00:00:00] Mayor Brenan opened the meeting.',
        '  + [00:00:00] Mayor Brennan opened the meeting.',
        'To take it back: npm run cli -- undo council',
        '',
      ].join('\n'),
    );
    expect(await shown('council')).toEqual([
      '[00:00:00] Speaker A: Mayor Brennan opened the meeting.',
      '[00:00:03] Speaker A: The ferry contract was signed.',
      '[00:00:06] Speaker B: Brenan is wrong about the ferry.',
      '[00:00:09] Speaker B: The harbour needs a new ferry.',
      '[00:00:12] Speaker A: I told Brenan the same thing.',
    ]);
    // show --json carries the corrected words, marked as such, with their timings kept.
    const json = JSON.parse((await cli('show', 'council', '--json')).stdout) as { sentences: Segment[] };
    expect(json.sentences[0]?.words[1]).toMatchObject({
      text: 'Brennan',
      start: 400,
      end: 750,
      confidence: 1,
      corrected: true,
    });
  }, 30_000);

  it('edit --all replaces every other occurrence as one edit; search then finds the new spelling and not the old', async () => {
    const run = await cli(
      'edit',
      'council',
      '--replace',
      'brenan=Brennan',
      '--all',
      '--whole-word',
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      editId: number;
      replaced: number;
      summary: string;
      changes: { before: { text: string }[]; after: { text: string }[] }[];
    };
    expect(report).toMatchObject({ replaced: 2, summary: 'Replaced “brenan” with “Brennan” (2 times)' });
    expect(report.changes.map((change) => change.after.map((s) => s.text))).toEqual([
      ['Brennan is wrong about the ferry.'],
      ['I told Brennan the same thing.'],
    ]);
    expect((await shown('council')).join('\n')).not.toContain('Brenan');

    // The other transcript here still says "Brenan": only this one's hits count.
    const hitsIn = async (query: string): Promise<number[]> => {
      const run = await cli('search', query, '--json');
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { hits: { transcriptId: string; startMs: number }[] }).hits
        .filter((hit) => hit.transcriptId === 'council')
        .map((hit) => hit.startMs)
        .sort((a, b) => a - b);
    };
    expect(await hitsIn('Brenan')).toEqual([]);
    expect(await hitsIn('Brennan')).toEqual([0, 6000, 12_000]);
    // Before the edit, the other transcript's hits show the old spelling was there to be found.
    expect((await cli('search', 'Brenan')).stdout).toContain('Mayor **Brenan** opened the meeting.');
  }, 30_000);

  it('export writes the corrected words to a file, subtitles included', async () => {
    const out = join(dataDir, 'council');
    const [srt, txt] = await Promise.all([
      cli('export', 'council', '--format', 'srt', '--out', out),
      cli('export', 'council', '--format', 'txt', '--out', out, '--no-header'),
    ]);
    expect(srt.code, srt.stderr).toBe(0);
    expect(txt.code, txt.stderr).toBe(0);
    for (const format of ['srt', 'txt']) {
      const file = readFileSync(`${out}.${format}`, 'utf8');
      expect(file.match(/Brennan/g), format).toHaveLength(3);
      expect(file, format).not.toContain('Brenan');
    }
  }, 30_000);

  it('history lists the edits; undo and redo take the latest back and bring it again', async () => {
    const history = JSON.parse((await cli('history', 'council', '--json')).stdout) as {
      summary: string;
      undone: boolean;
      at: number;
    }[];
    expect(history.map((entry) => [entry.summary, entry.undone])).toEqual([
      ['Replaced “Brenan” with “Brennan”', false],
      ['Replaced “brenan” with “Brennan” (2 times)', false],
    ]);
    expect(history[0]!.at).toBeGreaterThan(Date.now() - 120_000);

    const undone = await cli('undo', 'council');
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('Undid in "Harbour council": Replaced “brenan” with “Brennan” (2 times)');
    expect(undone.stdout).toContain('  + [00:00:12] I told Brenan the same thing.');
    expect(undone.stdout).toContain('To bring it back: npm run cli -- redo council');
    expect((await shown('council')).filter((line) => line.includes('Brenan '))).toHaveLength(2);

    const listed = await cli('history', 'council');
    expect(listed.stdout).toMatch(/Replaced “Brenan” with “Brennan”\n/);
    expect(listed.stdout).toMatch(
      /Replaced “brenan” with “Brennan” \(2 times\) {2}\(undone; npm run cli -- redo council brings it back\)\n/,
    );
    expect(listed.stdout).toContain('1 in force, 1 undone.');

    const redone = await cli('redo', 'council');
    expect(redone.code, redone.stderr).toBe(0);
    expect(redone.stdout).toContain('Redid in "Harbour council": Replaced “brenan” with “Brennan” (2 times)');
    expect((await shown('council')).join('\n')).not.toContain('Brenan');
  }, 30_000);

  it('revert brings one paragraph (counted from 1), then the whole transcript, back to the machine words, and undo takes it back', async () => {
    const paragraph = await cli('revert', 'council', '--paragraph', '2');
    expect(paragraph.code, paragraph.stderr).toBe(0);
    expect(paragraph.stdout).toContain(
      'Reverted paragraph 2 to the machine transcript in "Harbour council":',
    );
    expect(await shown('council')).toEqual([
      '[00:00:00] Speaker A: Mayor Brennan opened the meeting.',
      '[00:00:03] Speaker A: The ferry contract was signed.',
      '[00:00:06] Speaker B: Brenan is wrong about the ferry.',
      '[00:00:09] Speaker B: The harbour needs a new ferry.',
      '[00:00:12] Speaker A: I told Brennan the same thing.',
    ]);
    const whole = await cli('revert', 'council', '--json');
    expect(whole.code, whole.stderr).toBe(0);
    expect(JSON.parse(whole.stdout)).toMatchObject({
      summary: 'Reverted the whole transcript to the machine transcript',
    });
    expect(await shown('council')).toEqual(
      misheardLines.map(
        ([speaker, text, start]) =>
          `[00:00:${String(start / 1000).padStart(2, '0')}] Speaker ${speaker}: ${text}`,
      ),
    );
    const again = await cli('revert', 'council');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout.trim()).toBe(
      '"Harbour council" already reads as the service wrote it; nothing was changed.',
    );

    expect((await cli('undo', 'council')).code).toBe(0);
    expect((await shown('council'))[0]).toBe('[00:00:00] Speaker A: Mayor Brennan opened the meeting.');
    const history = JSON.parse((await cli('history', 'council', '--json')).stdout) as {
      kind: string;
      undone: boolean;
    }[];
    expect(history.map((entry) => [entry.kind, entry.undone])).toEqual([
      ['replace', false],
      ['replace', false],
      ['revert', false],
      ['revert', true],
    ]);
  }, 30_000);

  it('says plainly what is wrong, changes nothing, and exits 2', async () => {
    const cases: [string[], string][] = [
      [['edit', 'usage', '--replace', 'Brenan'], '--replace needs FROM=TO with an "=" between them'],
      [['edit', 'usage'], 'edit needs --replace "FROM=TO"'],
      [['edit', 'usage', '--replace', ' =x'], '--replace needs the words to find before the "="'],
      [['edit', '--replace', 'a=b'], 'edit needs one transcript id'],
      [
        ['edit', 'usage', '--replace', 'Mayor Brennan=x'],
        '“Mayor Brennan” is not in "Harbour council"; nothing was changed.',
      ],
      [
        ['edit', 'usage', '--replace', 'brenan=Brennan', '--match-case'],
        '“brenan” is not in "Harbour council" with the same capitals; nothing was changed.',
      ],
      [
        ['edit', 'usage', '--replace', 'Brenan=Brenan'],
        'changes nothing in "Harbour council"; nothing was changed.',
      ],
      [['edit', 'nope', '--replace', 'a=b'], 'No transcript with id nope.'],
      [
        ['edit', 'running', '--replace', 'a=b'],
        '"Still transcribing" is not finished yet (it is processing)',
      ],
      [['undo', 'usage'], 'There is nothing to undo in this transcript.'],
      [['redo', 'usage'], 'There is nothing to redo in this transcript.'],
      [['history'], 'history needs one transcript id'],
      [
        ['revert', 'usage', '--paragraph', '0'],
        '--paragraph must be a paragraph\'s number, counting from 1, not "0"',
      ],
      [['revert', 'usage', '--paragraph', 'two'], '--paragraph must be'],
      [
        ['revert', 'usage', '--paragraph', '4'],
        '"Harbour council" has 3 paragraphs; there is no paragraph 4.',
      ],
      [['edit', 'usage', '--replace', 'a=b', '--everywhere'], 'unknown option --everywhere for edit'],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args)));
    runs.forEach((run, index) => {
      const [args, says] = cases[index]!;
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(says);
      expect(run.stdout, args.join(' ')).toBe('');
    });
    const history = await cli('history', 'usage');
    expect(history.stdout.trim()).toBe(
      '"Harbour council" has no corrections: it reads as the service wrote it.',
    );
  }, 60_000);

  it.each([
    ['edit', ['--replace "FROM=TO"', '--all', '--whole-word', '--match-case', 'split at the first "="']],
    ['history', ['--json', 'whether it was undone']],
    ['undo', ['--json', 'latest correction']],
    ['redo', ['--json', 'undo took back']],
    ['revert', ['--paragraph N', 'counting from 1']],
  ])(
    '%s --help explains it from the command table',
    async (name, says) => {
      const run = await cli(name, '--help');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(name);
      for (const words of says) expect(run.stdout).toContain(words);
    },
    30_000,
  );
});

describe('the parts of edit that need no process', () => {
  it('splits FROM=TO at the first "=", allowing an empty TO and refusing an empty FROM', () => {
    expect(parseReplacement('Brenan=Brennan')).toEqual({ find: 'Brenan', replacement: 'Brennan' });
    expect(parseReplacement('x=y=z')).toEqual({ find: 'x', replacement: 'y=z' });
    expect(parseReplacement('um=')).toEqual({ find: 'um', replacement: '' });
    expect(() => parseReplacement('=x')).toThrow(UsageError);
    expect(() => parseReplacement('nothing')).toThrow(UsageError);
  });

  it('finds the first sentence holding the words, as find and replace matches them', () => {
    const sentence = (position: number, text: string): Segment => ({
      position,
      startMs: position * 1000,
      endMs: position * 1000 + 900,
      speaker: 'A',
      confidence: 1,
      text,
      words: text.split(' ').map((word) => ({ text: word, start: 0, end: 1, confidence: 1 })),
    });
    const sentences = [
      sentence(0, 'The Brennanites met.'),
      sentence(1, 'brennan spoke.'),
      sentence(2, 'Brennan left.'),
    ];
    const loose = { wholeWord: false, matchCase: false };
    expect(firstOccurrence(sentences, 'Brennan', loose)).toEqual({ position: 0, occurrence: 0 });
    expect(firstOccurrence(sentences, 'Brennan', { ...loose, wholeWord: true })).toEqual({
      position: 1,
      occurrence: 0,
    });
    expect(firstOccurrence(sentences, 'Brennan', { wholeWord: true, matchCase: true })).toEqual({
      position: 2,
      occurrence: 0,
    });
    expect(firstOccurrence(sentences, 'Alvarez', loose)).toBeUndefined();
  });
});
