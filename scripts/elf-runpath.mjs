// Reads and rewrites the library search path (DT_RUNPATH, or the older DT_RPATH) of an ELF
// shared object, the way Debian's `chrpath` does: in place, inside the string table, so the
// new path must be no longer than the old one. That is all Verbatim needs: naudiodon's build
// records the build machine's absolute folder (-Wl,-rpath,<module>/build/Release), and the
// packaged app needs `$ORIGIN` (the folder of the .node itself, where libportaudio.so.2 sits).
// Written here because neither patchelf nor chrpath can be assumed on a developer's machine,
// and no maintained npm package edits ELF files. The reading is scripts/elf.mjs's.
import { DT_RPATH, DT_RUNPATH, dynamicEntries, dynamicStringOffset, parseElf } from './elf.mjs';

/** Where in the file the search-path string lives, and how long it is (without its NUL). */
function runpathLocation(bytes) {
  const elf = parseElf(bytes);
  if (!elf) return undefined;
  const entries = dynamicEntries(elf);
  // The loader prefers DT_RUNPATH when both are present; so does this reader.
  const path =
    entries.find((entry) => entry.tag === DT_RUNPATH) ?? entries.find((entry) => entry.tag === DT_RPATH);
  const start = path && dynamicStringOffset(elf, entries, path.value);
  if (start === undefined) return undefined;
  const end = bytes.indexOf(0, start);
  return end < 0 ? undefined : { start, length: end - start };
}

/** The library search path an ELF shared object asks for, or undefined when it has none. */
export function readRunpath(bytes) {
  const location = runpathLocation(bytes);
  return location && bytes.toString('utf8', location.start, location.start + location.length);
}

/**
 * A copy of the ELF file whose search path is `path`. Throws when the file has no search path
 * to rewrite or the new one is longer than the old (the string table cannot grow in place).
 */
export function withRunpath(bytes, path) {
  const location = runpathLocation(bytes);
  if (!location) throw new Error('this file has no library search path (RUNPATH) to rewrite');
  const replacement = Buffer.from(path, 'utf8');
  if (replacement.length > location.length) {
    throw new Error(
      `the new library search path "${path}" is longer than the one recorded in the file (${location.length} bytes)`,
    );
  }
  const copy = Buffer.from(bytes);
  copy.fill(0, location.start, location.start + location.length);
  replacement.copy(copy, location.start);
  return copy;
}
