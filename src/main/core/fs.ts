import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';

/** The few file operations core services need, injectable so tests can fail them. */
export interface FileSystem {
  readFile(path: string): Promise<string>;
  writeFileAtomic(path: string, contents: string | Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/**
 * Writes to a sibling temporary file, flushes it to disk, then renames it into place: the
 * target is either the old file or the complete new one, never half of each.
 */
export async function writeFileAtomic(path: string, contents: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(contents);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export const nodeFileSystem: FileSystem = {
  readFile: (path) => readFile(path, 'utf8'),
  writeFileAtomic,
  rename: (from, to) => rename(from, to),
};
