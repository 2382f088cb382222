import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from './database';
import { Library } from './library';
import { StoryStore } from './story-store';

let folder: string;
let connections: Db[];

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'verbatim-snapshot-'));
  connections = [];
});
afterEach(() => {
  for (const db of connections) db.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A library on its own connection to the one file, as another process would have. */
function libraryOfAProcess(): Library {
  const db = openDatabase(join(folder, 'library.sqlite'));
  connections.push(db);
  return new Library(db, () => 1_000);
}

it('reads a story and its items in one snapshot: another process adding an item between is not half seen', async () => {
  const app = libraryOfAProcess();
  const commandLine = libraryOfAProcess();
  const { id } = await app.createStory('Ferry');
  await app.addTextToStory(id, 'The contract was signed.');
  const before = await app.story(id);

  // The command line adds a paragraph just after the app read the story's row, before its items.
  type WithRow = { requireRow(id: number): unknown };
  const readRow = (StoryStore.prototype as unknown as WithRow).requireRow;
  const spy = vi.spyOn(StoryStore.prototype as unknown as WithRow, 'requireRow');
  spy.mockImplementationOnce(function (this: WithRow, storyId: number) {
    const row = readRow.call(this, storyId);
    void commandLine.addTextToStory(id, 'Added by the command line.');
    return row;
  });
  try {
    expect(await app.story(id)).toEqual(before);
  } finally {
    spy.mockRestore();
  }
  expect((await app.story(id)).items.map((item) => item.text)).toEqual([
    'The contract was signed.',
    'Added by the command line.',
  ]);
});
