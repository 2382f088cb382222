import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeInterview } from '../../core/export/library-fixture.test-kit';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCliProcess } from '../cli-process.test-kit';

const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-story-add-'));
const env = { VERBATIM_DATA_DIR: dataDir };

let highlightId = 0;

/** A story with the journalist's text first, and a highlight not yet in it. */
beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const library = new Library(db);
  await storeInterview(library, 'ferry', 'Interview about the ferry contract');
  highlightId = (await library.createHighlight({ transcriptId: 'ferry', startMs: 8000, endMs: 10_500 })).id;
  const story = await library.createStory('Ferry piece');
  await library.addTextToStory(story.id, 'The council signed in March.');
  db.close();
});

async function quotesInStory(): Promise<number> {
  const shown = await runCliProcess(['story', 'show', 'Ferry piece', '--json'], env);
  expect(shown.code, shown.stderr).toBe(0);
  return (JSON.parse(shown.stdout) as { quotes: number }).quotes;
}

describe('verbatim story add', () => {
  // Five runs of the command line: the time limit leaves room for a loaded machine.
  it('says when the story already has the highlight, and where, and adds it again only with --again', async () => {
    const first = await runCliProcess(['story', 'add', 'Ferry piece', String(highlightId)], env);
    expect(first.code, first.stderr).toBe(0);

    const twice = await runCliProcess(['story', 'add', 'Ferry piece', String(highlightId)], env);
    expect(twice.code).toBe(2);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toBe(
      `verbatim: Highlight ${highlightId} is already in the story “Ferry piece”, as item 2 of 2; nothing was added. To quote it there twice, add --again.\n`,
    );
    expect(await quotesInStory()).toBe(1);

    const again = await runCliProcess(['story', 'add', 'Ferry piece', String(highlightId), '--again'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`Added highlight ${highlightId} to "Ferry piece"`);
    expect(await quotesInStory()).toBe(2);
  }, 120_000);

  it('says a highlight id that does not exist does not exist, and how to list the highlights', async () => {
    const run = await runCliProcess(['story', 'add', 'Ferry piece', '99'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'verbatim: There is no highlight 99. The highlights command lists them with their ids: npm run cli -- highlights\n',
    );
    expect(run.stderr).not.toContain('no longer');
  }, 60_000);
});
