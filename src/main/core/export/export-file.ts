import { basename, dirname } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import { writeFileAtomic, type AtomicWriteOps } from '../fs';

/** What a failed write means for the person saving, by the system's error code. */
function explain(code: string | undefined, path: string): string | undefined {
  const file = basename(path);
  const folder = dirname(path);
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `Verbatim may not write to ${folder}. Choose a folder you can save in, such as Documents, or ask whoever manages this computer for access.`;
    case 'EROFS':
      return `${folder} is read-only (a locked or read-only drive). Choose another place to save ${file}.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `There is not enough space to save ${file}: the disk or your storage allowance is full. Free some space or choose another drive, then save again.`;
    case 'ENOENT':
    case 'ENOTDIR':
      return `The folder ${folder} is no longer there (moved, renamed or on a drive that was removed). Choose another folder and save again.`;
    case 'EISDIR':
      return `${path} is a folder. Give the export a file name.`;
    case 'ENAMETOOLONG':
      return `The name ${file} is too long for this disk. Choose a shorter name.`;
    default:
      return undefined;
  }
}

/**
 * Saves an export atomically: into a temporary file in the target folder, flushed to disk, then
 * renamed over the target. A failure removes the temporary file, so nothing half-written is
 * left, and becomes a VerbatimError saying what went wrong in words a journalist understands.
 */
export async function writeExportFile(path: string, bytes: Uint8Array, ops?: AtomicWriteOps): Promise<void> {
  try {
    await writeFileAtomic(path, bytes, { createFolder: false, ...(ops ? { ops } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const message = explain(code, path);
    throw new VerbatimError(
      'storage',
      message ??
        `Verbatim could not save ${basename(path)}: ${error instanceof Error ? error.message : String(error)}`,
      { path, code },
    );
  }
}
