import { open, realpath } from 'node:fs/promises';

/** Read a megabyte at a time: a long interview is compared without holding it in memory. */
const chunkBytes = 1 << 20;

/** The file's own path with links and `..` resolved, or undefined when there is no such file. */
export async function realPathOf(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Whether two files hold the same bytes: read side by side, stopping at the first difference.
 * Callers compare only files of the same size, so a difference is usually found at once.
 */
export async function sameBytes(a: string, b: string): Promise<boolean> {
  const first = await open(a, 'r');
  try {
    const second = await open(b, 'r');
    try {
      const left = Buffer.alloc(chunkBytes);
      const right = Buffer.alloc(chunkBytes);
      for (let position = 0; ;) {
        const [{ bytesRead: leftRead }, { bytesRead: rightRead }] = await Promise.all([
          first.read(left, 0, chunkBytes, position),
          second.read(right, 0, chunkBytes, position),
        ]);
        if (leftRead !== rightRead) return false;
        if (leftRead === 0) return true;
        if (!left.subarray(0, leftRead).equals(right.subarray(0, rightRead))) return false;
        position += leftRead;
      }
    } finally {
      await second.close();
    }
  } finally {
    await first.close();
  }
}
