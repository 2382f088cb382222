import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { VerbatimError } from '../../../shared/errors';

/** A glossary file is a few hundred rows; anything this large is not one. */
const csvMaxBytes = 5 * 1024 * 1024;

/** A glossary CSV from disk, with what went wrong said in a journalist's words. */
export async function readGlossaryFile(path: string): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new VerbatimError('invalid_input', `${path} is not a file. Choose a CSV file.`);
    if (info.size > csvMaxBytes)
      throw new VerbatimError(
        'invalid_input',
        `${basename(path)} is too large for a glossary (${Math.round(info.size / 1024 / 1024)} MB). A glossary file is a CSV of a few thousand rows at most.`,
      );
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof VerbatimError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new VerbatimError(
      'invalid_input',
      code === 'ENOENT'
        ? `There is no file ${path}. Check the name and the folder.`
        : `Verbatim could not read ${basename(path)}: ${error instanceof Error ? error.message : String(error)}`,
      { path, code },
    );
  }
}
