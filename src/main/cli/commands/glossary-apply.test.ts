import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Glossaries } from '../../core/glossary/glossaries';
import {
  completedTranscriptFromLines,
  misheardTimings,
} from '../../core/library/completed-transcript.test-kit';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { GlossaryStore } from '../../core/library/glossary-store';
import { runCliProcess } from '../cli-process.test-kit';

/**
 * `glossary apply` (issue #31), each run a real child process with its output piped: the reader's
 * "Apply glossary…" from a terminal, never writing a name twice where the text already reads it.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-glossary-apply-'));
const cli = (...args: string[]) => runCliProcess(args, { VERBATIM_DATA_DIR: dataDir });

const lines: [speaker: string, text: string, startMs: number][] = [
  ['A', 'The council awarded Northwind Ferries a deal.', 0],
  ['B', 'Well, Northwind offered the best price.', 3000],
  ['A', 'Mayor Brenan signed it.', 6000],
];

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const library = new Library(db);
  for (const id of ['ferry', 'story'])
    await library.createJob({
      id,
      title: 'Ferry deal',
      sourceKind: 'file',
      source: `/recordings/${id}.wav`,
      audioPath: null,
      region: 'us',
      options: {},
      status: 'fetching',
    });
  for (const id of ['ferry', 'story'])
    await library.saveCompleted(
      id,
      completedTranscriptFromLines(lines, misheardTimings, {
        transcript: { id: `remote-${id}`, language_code: 'en', audio_duration: 9 },
      }),
    );
  const glossaries = new Glossaries(new GlossaryStore(db));
  const general = await glossaries.named('General');
  await glossaries.add(general.id, {
    term: 'Northwind Ferries',
    kind: 'organisation',
    misheard: ['Northwind'],
  });
  const story = await glossaries.create('Ferry story');
  await glossaries.add(story.id, { term: 'Brennan', kind: 'person', misheard: ['Brenan'] });
  db.close();
});

/** The transcript's sentences as the library holds them once a command has run. */
async function sentences(id: string): Promise<string[]> {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  try {
    return (await new Library(db).sentences(id)).map((sentence) => sentence.text);
  } finally {
    db.close();
  }
}

describe('glossary apply', () => {
  it('lists each fix with --dry-run and changes nothing, never where the text already reads the name', async () => {
    const run = await cli('glossary', 'apply', 'ferry', '--dry-run');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        '2 spellings to fix from the glossaries in "Ferry deal" (nothing is changed yet):',
        '  [00:00:03] sentence 2: Northwind → Northwind Ferries',
        '    - Well, Northwind offered the best price.',
        '    + Well, Northwind Ferries offered the best price.',
        '  [00:00:06] sentence 3: Brenan → Brennan',
        '    - Mayor Brenan signed it.',
        '    + Mayor Brennan signed it.',
        'To make them: npm run cli -- glossary apply ferry',
        '',
      ].join('\n'),
    );
    expect(await sentences('ferry')).toEqual(lines.map((line) => line[1]));
  });

  it('applies every fix as one correction that undo takes back, and a second time finds nothing', async () => {
    const run = await cli('glossary', 'apply', 'ferry', '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const applied = JSON.parse(run.stdout) as {
      dryRun: boolean;
      fixes: Record<string, unknown>[];
      edit: { summary: string; replaced: number };
    };
    expect(applied.dryRun).toBe(false);
    expect(applied.fixes).toEqual([
      {
        position: 1,
        sentence: 2,
        startMs: 3400,
        time: '00:00:03',
        match: 'Northwind',
        replacement: 'Northwind Ferries',
        entryId: expect.any(Number) as number,
        before: 'Well, Northwind offered the best price.',
        after: 'Well, Northwind Ferries offered the best price.',
      },
      expect.objectContaining({ position: 2, match: 'Brenan', replacement: 'Brennan' }),
    ]);
    expect(applied.edit).toMatchObject({ summary: 'Fixed 2 spellings from the glossary', replaced: 2 });
    expect(await sentences('ferry')).toEqual([
      'The council awarded Northwind Ferries a deal.',
      'Well, Northwind Ferries offered the best price.',
      'Mayor Brennan signed it.',
    ]);

    const again = await cli('glossary', 'apply', 'ferry');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toBe('Nothing in "Ferry deal" to fix from the glossaries.\n');

    const undone = await cli('undo', 'ferry');
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('Undid in "Ferry deal": Fixed 2 spellings from the glossary');
    expect(await sentences('ferry')).toEqual(lines.map((line) => line[1]));
  });

  it('uses only the glossary named with --glossary, and says how to take it back', async () => {
    const run = await cli('glossary', 'apply', 'story', '--glossary', 'ferry STORY');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        'Fixed 1 spelling from the glossary ferry STORY in "Ferry deal", as one correction:',
        '  [00:00:06] sentence 3: Brenan → Brennan',
        '    - Mayor Brenan signed it.',
        '    + Mayor Brennan signed it.',
        'To take it back: npm run cli -- undo story',
        '',
      ].join('\n'),
    );
  });

  it('is in the help, and without an id says what it needs, with its usage', async () => {
    const help = await cli('glossary', '--help');
    expect(help.stdout).toContain('glossary apply <id> [--glossary NAME] [--dry-run] [--json]');
    expect(help.stdout).toContain('--dry-run');
    const noId = await cli('glossary', 'apply');
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain(
      'verbatim: glossary apply needs one transcript id\n\nUsage: npm run cli -- glossary',
    );
  });

  it('says plainly when the transcript or the glossary named is not there', async () => {
    const unknown = await cli('glossary', 'apply', 'nowhere');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No transcript with id nowhere.');
    const noGlossary = await cli('glossary', 'apply', 'ferry', '--glossary', 'Sports desk');
    expect(noGlossary.code).toBe(2);
    expect(noGlossary.stderr).toContain('There is no glossary called “Sports desk”.');
  });
});
