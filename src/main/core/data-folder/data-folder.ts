import { copyFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { VerbatimError, withoutFullStop } from '../../../shared/errors';
import type { LibraryDatabase } from '../library/library-database';
import { writeFileAtomic } from '../../base/fs';

/**
 * Where the library lives. The default folder (the app's own data folder) keeps a small
 * `location.json` pointing at another folder when the user moved the library; the
 * VERBATIM_DATA_DIR environment variable overrides both.
 */
const pointerName = 'location.json';
const filesThatMove = ['settings.json', 'secrets.json', 'window-state.json'];

export async function resolveDataFolder(
  defaultFolder: string,
  environment: string | undefined,
): Promise<string> {
  if (environment) return resolve(environment);
  try {
    const pointer = JSON.parse(await readFile(join(defaultFolder, pointerName), 'utf8')) as {
      dataDir?: unknown;
    };
    if (typeof pointer.dataDir === 'string' && pointer.dataDir) return pointer.dataDir;
  } catch {
    // No pointer (the usual case) or an unreadable one: the default folder it is.
  }
  return defaultFolder;
}

/**
 * Copies the library to another folder and points the app there from its next start. The
 * database is copied with SQLite's online backup, so it is consistent while open; the old
 * folder is left as it was, so nothing can be lost half way.
 */
export async function moveDataFolder(options: {
  database: Pick<LibraryDatabase, 'copyTo'>;
  from: string;
  to: string;
  defaultFolder: string;
}): Promise<{ dataDir: string }> {
  const to = resolve(options.to.trim());
  if (!options.to.trim())
    throw new VerbatimError('invalid_input', 'Enter the folder to move the library to.');
  if (to === resolve(options.from))
    throw new VerbatimError('invalid_input', 'The library is already in that folder.');
  try {
    const info = await stat(to);
    if (!info.isDirectory()) throw new VerbatimError('invalid_input', `"${to}" is a file, not a folder.`);
    if ((await readdir(to)).length > 0) {
      throw new VerbatimError(
        'invalid_input',
        `"${to}" is not empty. Choose an empty or new folder, so nothing there is overwritten.`,
      );
    }
  } catch (error) {
    if (error instanceof VerbatimError) throw error;
    if ((error as { code?: string }).code !== 'ENOENT')
      throw new VerbatimError(
        'storage',
        `"${to}" cannot be used (${(error as { code?: string }).code ?? 'error'}).`,
      );
  }
  try {
    await mkdir(to, { recursive: true });
    await options.database.copyTo(join(to, 'library.sqlite'));
    for (const name of filesThatMove) {
      await copyFile(join(options.from, name), join(to, name)).catch((error: { code?: string }) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
    await writeFileAtomic(join(options.defaultFolder, pointerName), JSON.stringify({ dataDir: to }));
  } catch (error) {
    if (error instanceof VerbatimError) throw error;
    throw new VerbatimError(
      'storage',
      `The library could not be copied to "${to}": ${withoutFullStop((error as Error).message)}. Nothing was changed where it is now.`,
    );
  }
  return { dataDir: to };
}
