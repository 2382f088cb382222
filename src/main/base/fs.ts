import { chmod, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** The few file operations core services need, injectable so tests can fail them. */
export interface FileSystem {
  readFile(path: string): Promise<string>;
  writeFileAtomic(path: string, contents: string | Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/** The calls an atomic write makes, injectable so tests can fail each one (no space, no permission). */
export interface AtomicWriteOps {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  open(
    path: string,
    flags: 'wx',
  ): Promise<{
    writeFile(data: string | Uint8Array): Promise<void>;
    sync(): Promise<void>;
    close(): Promise<void>;
  }>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
  /** The mode of an existing target (to keep it), or undefined when there is none. */
  modeOf?(path: string): Promise<number | undefined>;
  chmod?(path: string, mode: number): Promise<void>;
}

const nodeAtomicWriteOps: AtomicWriteOps = {
  mkdir,
  open,
  rename,
  rm,
  modeOf: async (path) => {
    try {
      return (await stat(path)).mode & 0o7777;
    } catch {
      return undefined;
    }
  },
  chmod,
};

export interface AtomicWriteOptions {
  /** Create missing folders (settings, keys); an export instead fails when its folder is gone. */
  createFolder?: boolean;
  ops?: AtomicWriteOps;
}

/**
 * Writes to a sibling temporary file, flushes it to disk, then renames it into place: the
 * target is either the old file or the complete new one, never half of each. On any failure
 * the temporary file is removed before the error is passed on.
 */
export async function writeFileAtomic(
  path: string,
  contents: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const ops = options.ops ?? nodeAtomicWriteOps;
  if (options.createFolder ?? true) await ops.mkdir(dirname(path), { recursive: true });
  // A short name beside the target: a target whose name is already near the 255-byte limit
  // must not fail because of the temporary name.
  const temporary = join(dirname(path), `.verbatim-${randomBytes(6).toString('hex')}.tmp`);
  const keptMode = await ops.modeOf?.(path);
  const handle = await ops.open(temporary, 'wx');
  try {
    try {
      await handle.writeFile(contents);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Replacing a file keeps who may read it (a private 0600 transcript stays private).
    if (keptMode !== undefined) await ops.chmod?.(temporary, keptMode);
    await ops.rename(temporary, path);
  } catch (error) {
    await ops.rm(temporary, { force: true });
    throw error;
  }
}

export const nodeFileSystem: FileSystem = {
  readFile: (path) => readFile(path, 'utf8'),
  writeFileAtomic,
  rename: (from, to) => rename(from, to),
};
