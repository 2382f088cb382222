// Reads what a packed Verbatim app holds, from the bytes of its files alone (no binutils, no
// Electron to run): which ABI each native addon (.node) was built for, the libraries it loads,
// and the state of Electron's fuses. build/after-pack.mjs uses it to refuse a pack whose addons
// Electron cannot load; scripts/packed-app.test.ts uses it to inspect a real pack.
//
// Native addons are read when they are ELF (Linux). Mach-O (macOS) and PE (Windows) addons are
// reported as unread: the same facts live in their own symbol and relocation tables, which this
// reader does not parse, so on those systems the guard reports and does not refuse.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DT_NEEDED, dynamicEntries, dynamicStringOffset, parseElf } from './elf.mjs';

const SHT_RELA = 4;
const SHT_REL = 9;
const SHT_DYNSYM = 11;
const SHT_RELR = 19;

/** The dynamic symbols: each name, whether the file defines it (or imports it), where its name is. */
function dynamicSymbols(elf) {
  const table = elf.sections.find((section) => section.type === SHT_DYNSYM);
  const strings = table && elf.sections[table.link];
  if (!table || !strings) return [];
  const entrySize = table.entsize || (elf.is64 ? 24 : 16);
  const symbols = [];
  for (let at = table.offset; at + entrySize <= table.offset + table.size; at += entrySize) {
    // Elf64_Sym: name u32, info u8, other u8, shndx u16, value, size; Elf32_Sym: name, value, size, info, other, shndx.
    const nameAt = strings.offset + elf.u32(at);
    const shndx = elf.u16(at + (elf.is64 ? 6 : 14));
    const name = elf.cString(nameAt);
    if (name) symbols.push({ name, nameAt, defined: shndx !== 0 });
  }
  return symbols;
}

/**
 * Every pointer-sized slot the dynamic loader writes at load time, by virtual address: a
 * "relative" relocation (no symbol) records where the slot will point; one against a symbol
 * records only that the slot is filled. REL, RELA and the packed RELR tables are all read.
 */
function relocatedSlots(elf) {
  const slots = new Map();
  const inPlace = (vaddr) => {
    const at = elf.fileOffset(vaddr);
    return at === undefined ? undefined : elf.word(at);
  };
  for (const section of elf.sections) {
    if (section.type === SHT_RELA || section.type === SHT_REL) {
      const withAddend = section.type === SHT_RELA;
      const entrySize = section.entsize || elf.pointerSize * (withAddend ? 3 : 2);
      for (let at = section.offset; at + entrySize <= section.offset + section.size; at += entrySize) {
        const vaddr = elf.word(at);
        const info = elf.wordBig(at + elf.pointerSize);
        const symbol = elf.is64 ? info >> 32n : info >> 8n;
        const type = elf.is64 ? info & 0xffffffffn : info & 0xffn;
        if (type === 0n) continue; // R_*_NONE
        let target;
        if (symbol === 0n) {
          target = withAddend
            ? Number(BigInt.asIntN(elf.pointerSize * 8, elf.wordBig(at + 2 * elf.pointerSize)))
            : inPlace(vaddr);
        }
        slots.set(vaddr, { target });
      }
    } else if (section.type === SHT_RELR) {
      // Each even entry is the address of a relative slot; each odd one a bitmap of the next slots.
      const wordBits = BigInt(elf.pointerSize * 8);
      let next = 0;
      for (
        let at = section.offset;
        at + elf.pointerSize <= section.offset + section.size;
        at += elf.pointerSize
      ) {
        const entry = elf.wordBig(at);
        if ((entry & 1n) === 0n) {
          slots.set(Number(entry), { target: inPlace(Number(entry)) });
          next = Number(entry) + elf.pointerSize;
        } else {
          let bits = entry >> 1n;
          for (let index = 0; bits !== 0n; index++, bits >>= 1n) {
            const vaddr = next + index * elf.pointerSize;
            if (bits & 1n) slots.set(vaddr, { target: inPlace(vaddr) });
          }
          next += Number(wordBits - 1n) * elf.pointerSize;
        }
      }
    }
  }
  return slots;
}

/**
 * An addon registered the old way (NODE_MODULE: segfault-handler, which naudiodon loads) has no
 * versioned symbol: a constructor hands Node a static `node_module` struct whose first field is
 * the NODE_MODULE_VERSION it was compiled for, and Node refuses the addon when that differs.
 * The struct is found by its shape in the relocation table: { int version; unsigned flags;
 * void* dso_handle (NULL); const char* filename; register_func; context_register_func (one of
 * the two set); const char* modname; void* priv; node_module* link }.
 */
function legacyModuleStruct(elf) {
  const slots = relocatedSlots(elf);
  const P = elf.pointerSize;
  const stringAt = (slot, pattern) => {
    if (!slot || slot.target === undefined) return false;
    const at = elf.fileOffset(slot.target);
    const text = at === undefined ? undefined : elf.cString(at);
    return text !== undefined && pattern.test(text);
  };
  const zeroAndUnrelocated = (vaddr) => {
    const at = elf.fileOffset(vaddr);
    return !slots.has(vaddr) && at !== undefined && elf.word(at) === 0;
  };
  const found = [];
  for (const [filenameSlot, filename] of slots) {
    const start = filenameSlot - (8 + P);
    const versionAt = elf.fileOffset(start);
    if (versionAt === undefined) continue;
    const registers = [slots.has(start + 8 + 2 * P), slots.has(start + 8 + 3 * P)];
    if (
      stringAt(filename, /^[\x20-\x7e]+$/) &&
      stringAt(slots.get(start + 8 + 4 * P), /^[A-Za-z0-9_]+$/) &&
      registers.filter(Boolean).length === 1 &&
      [start + 8, start + 8 + 5 * P, start + 8 + 6 * P].every(zeroAndUnrelocated) &&
      (registers[0] ? zeroAndUnrelocated(start + 8 + 3 * P) : zeroAndUnrelocated(start + 8 + 2 * P))
    ) {
      const version = elf.i32(versionAt);
      if (version > 0 && version < 10_000) found.push({ abi: version, offset: versionAt });
    }
  }
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The ABI a native addon was built for, read from its bytes:
 * - { kind: 'node', abi, offset, via }: it loads only in a runtime whose NODE_MODULE_VERSION is
 *   `abi` (Node 20: 115; each Electron major has its own). `offset` is where in the file the
 *   number was read (the digits of the symbol name, or the struct's version field).
 * - { kind: 'node-api' }: built on Node-API, which every Node and Electron load.
 * - { kind: 'unknown', reason }: not ELF, or no Node entry point (not a Node addon at all).
 */
export function readAddonAbi(bytes) {
  const elf = parseElf(bytes);
  if (!elf) {
    const magic = bytes.length >= 4 ? bytes.readUInt32BE(0) : 0;
    if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(magic)) {
      return { kind: 'unknown', reason: 'a Mach-O file (macOS): its ABI is not read' };
    }
    if (bytes.length >= 2 && bytes.toString('latin1', 0, 2) === 'MZ') {
      return { kind: 'unknown', reason: 'a PE file (Windows): its ABI is not read' };
    }
    return { kind: 'unknown', reason: 'not a native library' };
  }
  const symbols = dynamicSymbols(elf);
  const defines = (name) => symbols.some((symbol) => symbol.defined && symbol.name === name);
  const imports = (name) => symbols.some((symbol) => !symbol.defined && symbol.name === name);
  // NAPI_MODULE_INIT exports napi_register_module_v1; the older NAPI_MODULE calls napi_module_register.
  if (defines('napi_register_module_v1') || imports('napi_module_register')) return { kind: 'node-api' };
  // NODE_MODULE_INIT (NAN_MODULE_WORKER_ENABLED, better-sqlite3) exports node_register_module_v<N>.
  const versioned = symbols.find(
    (symbol) => symbol.defined && /^node_register_module_v\d+$/.test(symbol.name),
  );
  if (versioned) {
    const digits = versioned.name.slice('node_register_module_v'.length);
    return {
      kind: 'node',
      abi: Number(digits),
      offset: versioned.nameAt + versioned.name.length - digits.length,
      via: `its exported symbol ${versioned.name}`,
    };
  }
  if (imports('node_module_register')) {
    const struct = legacyModuleStruct(elf);
    if (struct) return { kind: 'node', ...struct, via: 'the node_module struct it registers' };
    return { kind: 'unknown', reason: 'registers a node_module struct that was not found' };
  }
  return { kind: 'unknown', reason: 'exports no Node addon entry point (not a Node addon)' };
}

/** The shared libraries an ELF file asks the loader for (DT_NEEDED); [] when not ELF. */
export function readNeededLibraries(bytes) {
  const elf = parseElf(bytes);
  if (!elf) return [];
  const entries = dynamicEntries(elf);
  return entries
    .filter((entry) => entry.tag === DT_NEEDED)
    .map((entry) => {
      const at = dynamicStringOffset(elf, entries, entry.value);
      return (at !== undefined && elf.cString(at)) || '';
    });
}

/** @electron/fuses' marker: the fuse wire follows it (version byte, length byte, one byte a fuse). */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * The fuse wire of an Electron binary: its version and each fuse's state by index ('0' off,
 * '1' on, 'r' removed), or undefined when the binary has no sentinel.
 */
export function readFuseWire(bytes) {
  const at = bytes.indexOf(FUSE_SENTINEL, 0, 'latin1');
  if (at < 0) return undefined;
  const wire = at + FUSE_SENTINEL.length;
  const length = bytes[wire + 1] ?? 0;
  return { version: bytes[wire], states: bytes.toString('latin1', wire + 2, wire + 2 + length).split('') };
}

/** Every native addon (.node) in a packed app's folder, as paths relative to it ('/'-separated). */
export function findAddons(appOutDir) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.node'))
        found.push(relative(appOutDir, path).split(sep).join('/'));
    }
  };
  walk(appOutDir);
  return found.sort();
}

/**
 * What the packaging guard decides for a packed app: one line per addon, and the addons whose
 * ABI is readable and is not the one the packed Electron loads (each with its own message).
 */
export function checkAddonAbis({ appOutDir, electronVersion, electronAbi, abiOwner = () => undefined }) {
  const lines = [];
  const wrong = [];
  for (const path of findAddons(appOutDir)) {
    const found = readAddonAbi(readFileSync(join(appOutDir, path)));
    const name = path.split('/').pop();
    if (found.kind === 'node-api') {
      lines.push(`${path}: Node-API (loads in any Electron)`);
    } else if (found.kind === 'unknown') {
      lines.push(`${path}: ABI not read (${found.reason})`);
    } else if (found.abi === electronAbi) {
      lines.push(`${path}: ABI ${found.abi}, Electron ${electronVersion}'s`);
    } else {
      const owner = abiOwner(found.abi);
      const builtFor = owner ? `${owner}'s ABI ${found.abi}` : `ABI ${found.abi}`;
      const message =
        `${name} is built for ${builtFor}, Electron ${electronVersion} needs ${electronAbi}: ` +
        'run `node scripts/native-abi.mjs electron` (npm run dist runs it first), then package again.';
      lines.push(`${path}: ${message}`);
      wrong.push({ path, abi: found.abi, message });
    }
  }
  return { lines, wrong };
}
