import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeInterview } from '../../core/export/library-fixture.test-kit';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCliProcess } from '../cli-process.test-kit';

const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-delete-'));
const env = { VERBATIM_DATA_DIR: dataDir };

/** A story quoting three interviews, one quote each, through the real library. */
beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const library = new Library(db);
  const story = await library.createStory('Ferry piece');
  for (const id of ['kept', 'removed', 'bad-choice']) {
    await storeInterview(library, id, `Interview ${id}`);
    const highlight = await library.createHighlight({ transcriptId: id, startMs: 8000, endMs: 10_500 });
    await library.addQuoteToStory(story.id, highlight.id);
  }
  await storeInterview(library, 'unquoted', 'Unquoted interview');
  db.close();
});

async function storyItems(): Promise<string[]> {
  const shown = await runCliProcess(['story', 'show', 'Ferry piece', '--json'], env);
  expect(shown.code, shown.stderr).toBe(0);
  return (JSON.parse(shown.stdout) as { items: { text: string; highlightId: number | null }[] }).items.map(
    (item) => `${item.highlightId === null ? 'text' : 'quote'}: ${item.text}`,
  );
}

describe('delete, for a transcript quoted in a story', () => {
  it('keeps its quotes in the story as text by default, says so, and removes them when asked', async () => {
    const kept = await runCliProcess(['delete', 'kept'], env);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toBe(
      'Deleted "Interview kept".\nIts 1 quote in "Ferry piece" stays there as text (--quotes-in-stories remove takes it out).\n',
    );
    expect(await storyItems()).toEqual([
      'text: The ferry contract was signed in March.',
      'quote: The ferry contract was signed in March.',
      'quote: The ferry contract was signed in March.',
    ]);

    const removed = await runCliProcess(
      ['delete', 'removed', '--quotes-in-stories', 'remove', '--json'],
      env,
    );
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({
      deleted: 'removed',
      remote: false,
      quotesInStories: { quotes: 1, stories: ['Ferry piece'], kept: false },
    });
    expect(await storyItems()).toHaveLength(2);

    const refused = await runCliProcess(['delete', 'bad-choice', '--quotes-in-stories', 'drop'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--quotes-in-stories is keep or remove, not "drop"');
    expect(await storyItems()).toHaveLength(2);

    const plain = await runCliProcess(['delete', 'unquoted'], env);
    expect(plain.stdout).toBe('Deleted "Unquoted interview".\n');
  });
});
