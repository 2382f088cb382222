import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { VerbatimError } from '../../../shared/errors';

/** A glossary file is a few hundred rows; anything this large is not one. */
const csvMaxBytes = 5 * 1024 * 1024;

/**
 * A glossary CSV from disk, with what went wrong said in a journalist's words. Its text is
 * UTF-8 (with or without a byte order mark) or UTF-16 with one, as spreadsheets save "CSV UTF-8"
 * and "Unicode text"; anything else is refused (glossaryText).
 */
export async function readGlossaryFile(path: string): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new VerbatimError('invalid_input', `${path} is not a file. Choose a CSV file.`);
    if (info.size > csvMaxBytes)
      throw new VerbatimError(
        'invalid_input',
        `${basename(path)} is too large for a glossary (${Math.round(info.size / 1024 / 1024)} MB). A glossary file is a CSV of a few thousand rows at most.`,
      );
    return glossaryText(await readFile(path), basename(path));
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

/** How to save a glossary so Verbatim reads every letter of it. */
const saveAsUtf8 =
  'Save it again as "CSV UTF-8" (Excel: File, Save As, CSV UTF-8; LibreOffice: character set Unicode (UTF-8)), then import it again.';

/**
 * A glossary file's bytes as text, every letter as written. Read as UTF-8, a file a spreadsheet
 * saved in Windows-1252 or Latin-1 turned "Müller" into "M\uFFFDller" without a word, and so
 * into the glossary and onto every transcription it spells: such a file is refused, naming the
 * first line that is not UTF-8, rather than guessed at (the same bytes mean other letters in
 * other code pages). UTF-16 is known by its byte order mark.
 */
export function glossaryText(bytes: Buffer, fileName: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes.subarray(2), fileName);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(Buffer.from(bytes.subarray(2)).swap16(), fileName);
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (body.includes(0))
    throw new VerbatimError(
      'invalid_input',
      `${fileName} is not a text file Verbatim can read (it has NUL bytes, as UTF-16 without a byte order mark has). ${saveAsUtf8}`,
    );
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new VerbatimError(
      'invalid_input',
      `${fileName} is not UTF-8: line ${firstLineNotUtf8(body)} has a letter saved in another encoding (Windows-1252 or Latin-1, as some spreadsheets save CSV). ${saveAsUtf8}`,
    );
  }
}

/** UTF-16 little-endian text; an odd byte at the end or a broken surrogate pair is refused. */
function utf16(littleEndian: Buffer, fileName: string): string {
  try {
    return new TextDecoder('utf-16le', { fatal: true }).decode(littleEndian);
  } catch {
    throw new VerbatimError(
      'invalid_input',
      `${fileName} says it is UTF-16 but is cut or damaged. ${saveAsUtf8}`,
    );
  }
}

/** The number of the first line (counted from 1) whose bytes are not UTF-8. */
function firstLineNotUtf8(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(0x0a, start);
    try {
      decoder.decode(bytes.subarray(start, end === -1 ? bytes.length : end));
    } catch {
      return line;
    }
    if (end === -1) return line;
    start = end + 1;
  }
}
