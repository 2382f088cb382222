// The parts of an ELF file (Linux's executables and shared libraries) that Verbatim's build
// scripts read: program and section headers, the dynamic section and its strings. One reader
// for scripts/elf-runpath.mjs (an addon's library search path) and scripts/packed-app.mjs (an
// addon's ABI, the libraries it needs), written here because no maintained npm package reads
// ELF and binutils cannot be assumed on a developer's machine.

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const DT_NULL = 0;
export const DT_NEEDED = 1;
const DT_STRTAB = 5;
export const DT_RPATH = 15;
export const DT_RUNPATH = 29;

/** Parses the parts of an ELF file these scripts read; undefined when the bytes are not ELF. */
export function parseElf(bytes) {
  if (bytes.length < 52 || bytes.readUInt32BE(0) !== 0x7f454c46) return undefined;
  const is64 = bytes[4] === 2;
  const little = bytes[5] === 1;
  const pointerSize = is64 ? 8 : 4;
  const u16 = (at) => (little ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at) => (little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  const i32 = (at) => (little ? bytes.readInt32LE(at) : bytes.readInt32BE(at));
  const big = (at) => (little ? bytes.readBigUInt64LE(at) : bytes.readBigUInt64BE(at));
  /** A pointer-sized word, as a BigInt (a relocation's info and addend need all 64 bits). */
  const wordBig = (at) => (is64 ? big(at) : BigInt(u32(at)));
  const word = (at) => Number(wordBig(at));

  // Program headers (Elf64_Phdr: type, flags, offset, vaddr, paddr, filesz…; Elf32_Phdr: type,
  // offset, vaddr, paddr, filesz…): they map a virtual address to where it sits in the file.
  const segments = [];
  const phoff = word(is64 ? 0x20 : 0x1c);
  const phentsize = u16(is64 ? 0x36 : 0x2a);
  for (let index = 0; index < u16(is64 ? 0x38 : 0x2c); index++) {
    const at = phoff + index * phentsize;
    segments.push(
      is64
        ? { type: u32(at), offset: word(at + 8), vaddr: word(at + 16), filesz: word(at + 32) }
        : { type: u32(at), offset: u32(at + 4), vaddr: u32(at + 8), filesz: u32(at + 16) },
    );
  }
  // Section headers: the dynamic symbol table and the relocation tables are found through them.
  const sections = [];
  const shoff = word(is64 ? 0x28 : 0x20);
  const shentsize = u16(is64 ? 0x3a : 0x2e);
  for (let index = 0; shoff > 0 && index < u16(is64 ? 0x3c : 0x30); index++) {
    const at = shoff + index * shentsize;
    sections.push(
      is64
        ? {
            type: u32(at + 4),
            offset: word(at + 24),
            size: word(at + 32),
            link: u32(at + 40),
            entsize: word(at + 56),
          }
        : {
            type: u32(at + 4),
            offset: u32(at + 16),
            size: u32(at + 20),
            link: u32(at + 24),
            entsize: u32(at + 36),
          },
    );
  }
  /** The file offset of a virtual address, if the file holds its bytes. */
  const fileOffset = (vaddr) => {
    const load = segments.find(
      (segment) =>
        segment.type === PT_LOAD && vaddr >= segment.vaddr && vaddr < segment.vaddr + segment.filesz,
    );
    return load && load.offset + (vaddr - load.vaddr);
  };
  const cString = (at) => {
    const end = bytes.indexOf(0, at);
    return end < 0 ? undefined : bytes.toString('latin1', at, end);
  };
  return { bytes, is64, pointerSize, u16, u32, i32, word, wordBig, segments, sections, fileOffset, cString };
}

/** The dynamic section's entries ({tag, value}) up to DT_NULL; [] when there is none. */
export function dynamicEntries(elf) {
  const dynamic = elf.segments.find((segment) => segment.type === PT_DYNAMIC);
  if (!dynamic) return [];
  const entrySize = 2 * elf.pointerSize;
  const entries = [];
  for (let at = dynamic.offset; at + entrySize <= dynamic.offset + dynamic.filesz; at += entrySize) {
    const tag = elf.word(at);
    if (tag === DT_NULL) break;
    entries.push({ tag, value: elf.word(at + elf.pointerSize) });
  }
  return entries;
}

/** Where in the file a dynamic entry's string starts (DT_NEEDED, DT_RUNPATH…), if it is held. */
export function dynamicStringOffset(elf, entries, value) {
  const table = elf.fileOffset(entries.find((entry) => entry.tag === DT_STRTAB)?.value ?? -1);
  return table === undefined ? undefined : table + value;
}
