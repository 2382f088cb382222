/**
 * Which processors a macOS library was built for, read from its Mach-O header. naudiodon ships
 * a libportaudio.dylib with only Intel slices: on an Apple-silicon Mac the addon still loads,
 * and dyld aborts the whole process ("missing symbol called") at the first PortAudio call — no
 * try/catch can stop that. Reading the header first lets the app refuse to load it instead.
 */

const FAT_MAGIC = 0xcafebabe;
const FAT_MAGIC_64 = 0xcafebabf;
const MH_MAGIC = 0xfeedface;
const MH_MAGIC_64 = 0xfeedfacf;
const MH_CIGAM = 0xcefaedfe;
const MH_CIGAM_64 = 0xcffaedfe;

export const CPU_TYPE_I386 = 0x00000007;
export const CPU_TYPE_X86_64 = 0x01000007;
export const CPU_TYPE_ARM = 0x0000000c;
export const CPU_TYPE_ARM64 = 0x0100000c;

const cpuNames = new Map<number, string>([
  [CPU_TYPE_I386, 'i386'],
  [CPU_TYPE_X86_64, 'x86_64'],
  [CPU_TYPE_ARM, 'arm'],
  [CPU_TYPE_ARM64, 'arm64'],
]);

/** Node's process.arch to the Mach-O CPU type a library needs for it. */
const cpuTypeOfArch: Record<string, number> = {
  arm64: CPU_TYPE_ARM64,
  x64: CPU_TYPE_X86_64,
  ia32: CPU_TYPE_I386,
};

/**
 * A universal binary lists a few architectures; a count beyond this is not a Mach-O file but
 * something sharing the magic number (a Java class file starts with 0xcafebabe too).
 */
const MAX_FAT_ARCHES = 32;

export interface SliceCheck {
  /** A slice for the asked architecture is there. */
  loadable: boolean;
  /** The architectures found ("i386", "x86_64", "arm64", or the CPU type in hex), none for a non-Mach-O file. */
  slices: string[];
}

function cpuName(cpuType: number): string {
  return cpuNames.get(cpuType) ?? `0x${cpuType.toString(16).padStart(8, '0')}`;
}

/** The CPU types in a Mach-O header, or undefined when the bytes are not one. */
function cpuTypes(bytes: Uint8Array): number[] | undefined {
  if (bytes.length < 8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getUint32(0, false);
  if (magic === FAT_MAGIC || magic === FAT_MAGIC_64) {
    // The fat header is big-endian whatever the slices inside: a count, then one record each.
    const count = view.getUint32(4, false);
    const recordSize = magic === FAT_MAGIC ? 20 : 32;
    if (count === 0 || count > MAX_FAT_ARCHES || bytes.length < 8 + count * recordSize) return undefined;
    return Array.from({ length: count }, (_, index) => view.getUint32(8 + index * recordSize, false));
  }
  // A thin file: cputype follows the magic, in the byte order the magic is written in.
  if (magic === MH_MAGIC || magic === MH_MAGIC_64) return [view.getUint32(4, false)];
  if (magic === MH_CIGAM || magic === MH_CIGAM_64) return [view.getUint32(4, true)];
  return undefined;
}

/** Whether a library with this header (its first bytes) can be loaded by a process of `arch`. */
export function checkMachOSlices(bytes: Uint8Array, arch: string): SliceCheck {
  const types = cpuTypes(bytes) ?? [];
  const wanted = cpuTypeOfArch[arch];
  return {
    loadable: wanted !== undefined && types.includes(wanted),
    slices: types.map(cpuName),
  };
}
