import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import type { Highlight, Quote, Story, StorySummary } from '../../../shared/highlights';
import { runCliProcess } from '../cli-process.test-kit';
import { storeMisheardInterview } from '../corrections-fixture.test-kit';

/**
 * Highlights and stories from the command line, each run a real child process with its output
 * piped: highlight (times in three forms, each word mostly inside taken whole, bad times refused), highlights,
 * story create, add, list and show. The interview's words are 400 ms apart and last 350 ms;
 * its sentences start at 0, 3, 6, 9 and 12 s.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-highlight-'));
const cli = (...args: string[]) => runCliProcess(args, { VERBATIM_DATA_DIR: dataDir });

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  await storeMisheardInterview(new Library(db), 'council');
  db.close();
});

describe('highlights and stories from the command line', () => {
  it('highlights a span snapped to its words, lists it, and builds and shows a story of it', async () => {
    const made = await cli(
      'highlight',
      'council',
      '--from',
      '0:00:00.5',
      '--to',
      '1.4',
      '--note',
      'the lede',
    );
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect(made.stdout).toBe(
      [
        'Highlighted 00:00:00–00:00:01 of "Harbour council" as Quote (highlight 1):',
        '  [00:00:00] Speaker A: “Brenan opened the”',
        '  Note: the lede',
        '',
      ].join('\n'),
    );
    const check = await cli(
      'highlight',
      'council',
      '--from',
      '00:06',
      '--to',
      '00:08.4',
      '--label',
      'check',
      '--json',
    );
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout) as Highlight).toMatchObject({
      id: 2,
      startMs: 6000,
      endMs: 8350,
      text: 'Brenan is wrong about the ferry.',
      speaker: 'B',
    });

    const checks = await cli('highlights', '--label', 'Check', '--json');
    expect((JSON.parse(checks.stdout) as Quote[]).map((quote) => quote.id)).toEqual([2]);
    const all = await cli('highlights');
    expect(all.stdout).toContain('2 highlights.');
    expect(all.stdout).toContain(
      'Quote  "Harbour council" [00:00:00] Speaker A: “Brenan opened the”  Note: the lede',
    );

    const created = await cli('story', 'create', 'Ferry piece', '--json');
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout) as Story).toMatchObject({ name: 'Ferry piece', items: [] });
    expect((await cli('story', 'add', 'ferry piece', '2')).code).toBe(0);
    expect((await cli('story', 'add', '1', '1')).code).toBe(0);

    const listed = await cli('story', 'list', '--json');
    expect(JSON.parse(listed.stdout) as StorySummary[]).toMatchObject([{ name: 'Ferry piece', quotes: 2 }]);
    const shown = await cli('story', 'show', 'Ferry piece');
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toBe(
      [
        'Story "Ferry piece" (1), 2 quotes:',
        '  1. [00:00:06] Speaker B: “Brenan is wrong about the ferry.”  — "Harbour council"  (not checked against the audio)',
        '  2. [00:00:00] Speaker A: “Brenan opened the”  — "Harbour council"  (not checked against the audio)',
        '',
      ].join('\n'),
    );
  }, 120_000);

  it("prints a quote in the quotation marks of its transcript's language, as every other surface does", async () => {
    const frenchDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-highlight-fr-'));
    const db = openDatabase(join(frenchDir, 'library.sqlite'));
    await storeMisheardInterview(new Library(db), 'conseil', 'Conseil du port', 'fr');
    db.close();
    const french = (...args: string[]) => runCliProcess(args, { VERBATIM_DATA_DIR: frenchDir });

    const made = await french('highlight', 'conseil', '--from', '6', '--to', '8.4');
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect(made.stdout).toContain('[00:00:06] Speaker B: «\u00a0Brenan is wrong about the ferry.\u00a0»');
    expect((await french('highlights')).stdout).toContain('«\u00a0Brenan is wrong about the ferry.\u00a0»');
    expect((await french('story', 'create', 'Port')).code).toBe(0);
    expect((await french('story', 'add', 'Port', '1')).code).toBe(0);
    expect((await french('story', 'show', 'Port')).stdout).toContain(
      '1. [00:00:06] Speaker B: «\u00a0Brenan is wrong about the ferry.\u00a0»  — "Conseil du port"',
    );
  }, 120_000);

  it('says plainly what is wrong: a bad time, a silent span, an unknown label, story or highlight', async () => {
    const badTime = await cli('highlight', 'council', '--from', 'noon', '--to', '00:02');
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toContain('--from "noon" is not a time; write it as hh:mm:ss, mm:ss or seconds');
    const backwards = await cli('highlight', 'council', '--from', '00:05', '--to', '00:02');
    expect(backwards.stderr).toContain('--to must come after --from');
    const silent = await cli('highlight', 'council', '--from', '2.1', '--to', '2.9');
    expect(silent.code).toBe(2);
    expect(silent.stderr).toContain('Nothing is said between 00:02 and 00:02 in this transcript');
    const label = await cli('highlight', 'council', '--from', '0', '--to', '1', '--label', 'Gossip');
    expect(label.stderr).toContain(
      'There is no highlight label called “Gossip”. The labels are: Quote, Check, Background.',
    );
    expect((await cli('story', 'show', 'Nowhere')).stderr).toContain('There is no story called “Nowhere”.');
    expect((await cli('story', 'add', 'Ferry piece', 'one')).stderr).toContain('"one" is not a highlight id');
    expect((await cli('story', 'add', 'Ferry piece', '99')).stderr).toContain(
      'There is no highlight 99. The highlights command lists them with their ids',
    );
    expect((await cli('story', 'create', 'ferry PIECE')).stderr).toContain('There is already a story called');
    expect((await cli('story', 'frobnicate')).stderr).toContain('unknown story command "frobnicate"');
  }, 120_000);
});
