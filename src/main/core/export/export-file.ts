import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import { writeFileAtomic, type AtomicWriteOps } from '../../base/fs';

/**
 * A folder to save into that is not there. One the journalist chose or was offered was there
 * then, so it has gone (moved, renamed, a drive removed); a typed one may never have existed,
 * and saying it "is no longer there" would send them looking for something that never was.
 */
export function missingFolderMessage(folder: string, wasThere: boolean): string {
  return wasThere
    ? `The folder ${folder} is no longer there (moved, renamed or on a drive that was removed). Choose another folder.`
    : `There is no folder ${folder}. Check the path, or choose a folder that exists.`;
}

/** What a failed write means for the person saving, by the system's error code. */
function explain(code: string | undefined, path: string, folderWasThere: boolean): string | undefined {
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
      return missingFolderMessage(folder, folderWasThere);
    case 'EISDIR':
      return `${path} is a folder. Give the export a file name.`;
    case 'ENAMETOOLONG':
      return `The name ${file} is too long for this disk. Choose a shorter name.`;
    default:
      return undefined;
  }
}

export interface ExportWriteOptions {
  /** Replace a file already at the path (the journalist said so); otherwise it is refused. */
  replace: boolean;
  /**
   * The folder was there when the journalist chose it (from a dialog, or the one offered): if
   * it is missing when saving, it has gone rather than never existed.
   */
  folderWasThere?: boolean;
  ops?: AtomicWriteOps;
}

/**
 * Saves an export atomically: into a temporary file in the target folder, flushed to disk, then
 * renamed over the target. A failure removes the temporary file, so nothing half-written is
 * left, and becomes a VerbatimError saying what went wrong in words a journalist understands.
 * An existing file is replaced only when asked (keeping its permissions), and never a device
 * or other special file.
 */
export async function writeExportFile(
  path: string,
  bytes: Uint8Array,
  options: ExportWriteOptions,
): Promise<void> {
  const existing = await statOrUndefined(path);
  if (existing?.isDirectory())
    throw new VerbatimError('invalid_input', `${path} is a folder. Give the export a file name.`, { path });
  if (existing && !existing.isFile())
    throw new VerbatimError(
      'invalid_input',
      `${path} is not an ordinary file (a device or other special file). Choose a file name in a folder such as Documents.`,
      { path },
    );
  if (existing && !options.replace)
    throw new VerbatimError(
      'conflict',
      `${basename(path)} already exists in ${dirname(path)}. Choose another name, or say to replace it.`,
      { path },
    );
  try {
    await writeFileAtomic(path, bytes, { createFolder: false, ...(options.ops ? { ops: options.ops } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const folderThere = (code === 'ENOENT' && (await statOrUndefined(dirname(path)))?.isDirectory()) ?? false;
    const message = folderThere
      ? `Files cannot be created in ${dirname(path)} (a system folder). Choose another folder, such as Documents.`
      : explain(code, path, options.folderWasThere ?? false);
    throw new VerbatimError(
      'storage',
      message ??
        `Verbatim could not save ${basename(path)}: ${error instanceof Error ? error.message : String(error)}`,
      { path, code },
    );
  }
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}
