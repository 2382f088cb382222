// Reads and rewrites the library search path (DT_RUNPATH, or the older DT_RPATH) of an ELF
// shared object, the way Debian's `chrpath` does: in place, inside the string table, so the
// new path must be no longer than the old one. That is all Verbatim needs: naudiodon's build
// records the build machine's absolute folder (-Wl,-rpath,<module>/build/Release), and the
// packaged app needs `$ORIGIN` (the folder of the .node itself, where libportaudio.so.2 sits).
// Written here because neither patchelf nor chrpath can be assumed on a developer's machine,
// and no maintained npm package edits ELF files.

const DT_NULL = 0;
const DT_STRTAB = 5;
const DT_RPATH = 15;
const DT_RUNPATH = 29;
const PT_LOAD = 1;
const PT_DYNAMIC = 2;

/** The layout facts of an ELF file that locating its search path needs; undefined if not ELF. */
function elfLayout(bytes) {
  if (bytes.length < 52 || bytes.readUInt32BE(0) !== 0x7f454c46) return undefined;
  const is64 = bytes[4] === 2;
  const little = bytes[5] === 1;
  const u16 = (offset) => (little ? bytes.readUInt16LE(offset) : bytes.readUInt16BE(offset));
  const u32 = (offset) => (little ? bytes.readUInt32LE(offset) : bytes.readUInt32BE(offset));
  const word = (offset) =>
    is64 ? Number(little ? bytes.readBigUInt64LE(offset) : bytes.readBigUInt64BE(offset)) : u32(offset);
  const programHeaders = word(is64 ? 0x20 : 0x1c);
  const headerSize = u16(is64 ? 0x36 : 0x2a);
  const headerCount = u16(is64 ? 0x38 : 0x2c);
  const segments = [];
  for (let index = 0; index < headerCount; index++) {
    const at = programHeaders + index * headerSize;
    // Elf64_Phdr: type, flags, offset, vaddr, paddr, filesz…; Elf32_Phdr: type, offset, vaddr, paddr, filesz…
    segments.push(
      is64
        ? { type: u32(at), offset: word(at + 8), vaddr: word(at + 16), filesz: word(at + 32) }
        : { type: u32(at), offset: u32(at + 4), vaddr: u32(at + 8), filesz: u32(at + 16) },
    );
  }
  return { is64, word, segments };
}

/** Where in the file the search-path string lives, and how long it is (without its NUL). */
function runpathLocation(bytes) {
  const layout = elfLayout(bytes);
  if (!layout) return undefined;
  const dynamic = layout.segments.find((segment) => segment.type === PT_DYNAMIC);
  if (!dynamic) return undefined;
  const entrySize = layout.is64 ? 16 : 8;
  let stringTableAddress;
  let pathOffset;
  for (let at = dynamic.offset; at + entrySize <= dynamic.offset + dynamic.filesz; at += entrySize) {
    const tag = layout.word(at);
    const value = layout.word(at + entrySize / 2);
    if (tag === DT_NULL) break;
    if (tag === DT_STRTAB) stringTableAddress = value;
    // The loader prefers DT_RUNPATH when both are present; so does this reader.
    if (tag === DT_RUNPATH || (tag === DT_RPATH && pathOffset === undefined)) pathOffset = value;
  }
  if (stringTableAddress === undefined || pathOffset === undefined) return undefined;
  const load = layout.segments.find(
    (segment) =>
      segment.type === PT_LOAD &&
      stringTableAddress >= segment.vaddr &&
      stringTableAddress < segment.vaddr + segment.filesz,
  );
  if (!load) return undefined;
  const start = load.offset + (stringTableAddress - load.vaddr) + pathOffset;
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
