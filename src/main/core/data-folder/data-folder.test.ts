import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { moveDataFolder, resolveDataFolder } from './data-folder';
import { openDatabase } from '../library/database';
import { LibraryDatabase } from '../library/library-database';
import { Library } from '../library/library';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'verbatim-folder-'));
}

describe('the data folder', () => {
  it('is the default one, unless moved, unless the environment says otherwise', async () => {
    const home = folder();
    expect(await resolveDataFolder(home, undefined)).toBe(home);
    writeFileSync(join(home, 'location.json'), JSON.stringify({ dataDir: '/mnt/encrypted/verbatim' }));
    expect(await resolveDataFolder(home, undefined)).toBe('/mnt/encrypted/verbatim');
    expect(await resolveDataFolder(home, '/tmp/override')).toBe('/tmp/override');
    writeFileSync(join(home, 'location.json'), '{ broken');
    expect(await resolveDataFolder(home, undefined)).toBe(home);
  });

  it('moves the library with its settings and keys, leaving the old folder intact', async () => {
    const home = folder();
    const db = openDatabase(join(home, 'library.sqlite'));
    const library = new Library(db);
    await library.createJob({
      id: 't1',
      title: 'Council',
      sourceKind: 'url',
      source: 'https://x/a.mp3',
      audioPath: null,
      region: 'us',
      options: {},
      status: 'queued',
    });
    writeFileSync(join(home, 'settings.json'), '{"theme":"dark"}');
    writeFileSync(join(home, 'secrets.json'), '{"transcriptionKey":"c2VjcmV0"}');
    const target = join(folder(), 'new place');

    expect(
      await moveDataFolder({
        database: LibraryDatabase.over(db),
        from: home,
        to: target,
        defaultFolder: home,
      }),
    ).toEqual({
      dataDir: target,
    });
    const moved = new Library(openDatabase(join(target, 'library.sqlite')));
    expect((await moved.get('t1'))?.title).toBe('Council');
    expect(readFileSync(join(target, 'settings.json'), 'utf8')).toBe('{"theme":"dark"}');
    expect(existsSync(join(target, 'secrets.json'))).toBe(true);
    expect(await resolveDataFolder(home, undefined)).toBe(target);
    expect((await library.get('t1'))?.title).toBe('Council'); // the old copy still works
  });

  it('refuses a folder with something in it, a file, and the same folder', async () => {
    const home = folder();
    const db = openDatabase(join(home, 'library.sqlite'));
    const busy = folder();
    writeFileSync(join(busy, 'notes.txt'), 'mine');
    await expect(
      moveDataFolder({ database: LibraryDatabase.over(db), from: home, to: busy, defaultFolder: home }),
    ).rejects.toThrow('not empty');
    await expect(
      moveDataFolder({
        database: LibraryDatabase.over(db),
        from: home,
        to: join(busy, 'notes.txt'),
        defaultFolder: home,
      }),
    ).rejects.toThrow('is a file');
    await expect(
      moveDataFolder({ database: LibraryDatabase.over(db), from: home, to: home, defaultFolder: home }),
    ).rejects.toThrow('already in that folder');
    await expect(
      moveDataFolder({ database: LibraryDatabase.over(db), from: home, to: '  ', defaultFolder: home }),
    ).rejects.toThrow('Enter the folder');
    const empty = join(folder(), 'empty');
    mkdirSync(empty);
    await expect(
      moveDataFolder({ database: LibraryDatabase.over(db), from: home, to: empty, defaultFolder: home }),
    ).resolves.toEqual({
      dataDir: empty,
    });
  });
});
