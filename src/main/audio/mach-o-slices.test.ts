import { describe, expect, it } from 'vitest';
import { checkMachOSlices, CPU_TYPE_ARM64, CPU_TYPE_I386, CPU_TYPE_X86_64 } from './mach-o-slices';

/** A universal binary's header: FAT_MAGIC, the count, one 20-byte fat_arch each, big-endian. */
function fat(cpuTypes: number[]): Buffer {
  const header = Buffer.alloc(8 + cpuTypes.length * 20);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(cpuTypes.length, 4);
  cpuTypes.forEach((cpuType, index) => {
    const at = 8 + index * 20;
    header.writeUInt32BE(cpuType, at);
    header.writeUInt32BE(3, at + 4); // cpusubtype
    header.writeUInt32BE(0x4000 * (index + 1), at + 8); // offset
    header.writeUInt32BE(0x1000, at + 12); // size
    header.writeUInt32BE(14, at + 16); // align
  });
  return header;
}

/** A 64-bit fat header (FAT_MAGIC_64): 32-byte records with 64-bit offsets and sizes. */
function fat64(cpuTypes: number[]): Buffer {
  const header = Buffer.alloc(8 + cpuTypes.length * 32);
  header.writeUInt32BE(0xcafebabf, 0);
  header.writeUInt32BE(cpuTypes.length, 4);
  cpuTypes.forEach((cpuType, index) => header.writeUInt32BE(cpuType, 8 + index * 32));
  return header;
}

/** A thin 64-bit library as macOS writes them: MH_MAGIC_64 little-endian (bytes cf fa ed fe). */
function thin(cpuType: number): Buffer {
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0xfeedfacf, 0);
  header.writeUInt32LE(cpuType, 4);
  header.writeUInt32LE(0, 8); // cpusubtype
  header.writeUInt32LE(6, 12); // MH_DYLIB
  return header;
}

/** The same, written big-endian (bytes fe ed fa cf). */
function thinBigEndian(cpuType: number): Buffer {
  const header = Buffer.alloc(32);
  header.writeUInt32BE(0xfeedfacf, 0);
  header.writeUInt32BE(cpuType, 4);
  return header;
}

describe('the processors a Mach-O library is built for', () => {
  it('refuses naudiodon’s universal i386 + x86_64 library on Apple silicon, and takes it on Intel', () => {
    const intelOnly = fat([CPU_TYPE_I386, CPU_TYPE_X86_64]);
    expect(checkMachOSlices(intelOnly, 'arm64')).toEqual({ loadable: false, slices: ['i386', 'x86_64'] });
    expect(checkMachOSlices(intelOnly, 'x64')).toEqual({ loadable: true, slices: ['i386', 'x86_64'] });
  });

  it('takes a universal library with an arm64 slice on Apple silicon', () => {
    const universal = fat([CPU_TYPE_X86_64, CPU_TYPE_ARM64]);
    expect(checkMachOSlices(universal, 'arm64')).toEqual({ loadable: true, slices: ['x86_64', 'arm64'] });
    expect(checkMachOSlices(fat([CPU_TYPE_ARM64]), 'x64')).toEqual({ loadable: false, slices: ['arm64'] });
    expect(checkMachOSlices(fat64([CPU_TYPE_ARM64]), 'arm64')).toEqual({ loadable: true, slices: ['arm64'] });
  });

  it('reads a thin arm64 library, in either byte order', () => {
    expect(checkMachOSlices(thin(CPU_TYPE_ARM64), 'arm64')).toEqual({ loadable: true, slices: ['arm64'] });
    expect(checkMachOSlices(thin(CPU_TYPE_ARM64), 'x64')).toEqual({ loadable: false, slices: ['arm64'] });
    expect(checkMachOSlices(thinBigEndian(CPU_TYPE_ARM64), 'arm64').loadable).toBe(true);
  });

  it('reads a thin x86_64 library', () => {
    expect(checkMachOSlices(thin(CPU_TYPE_X86_64), 'x64')).toEqual({ loadable: true, slices: ['x86_64'] });
    expect(checkMachOSlices(thin(CPU_TYPE_X86_64), 'arm64')).toEqual({ loadable: false, slices: ['x86_64'] });
  });

  it('refuses what is not a Mach-O library, or is cut short', () => {
    const garbage = Buffer.from('#!/bin/sh\necho not a library\n');
    expect(checkMachOSlices(garbage, 'arm64')).toEqual({ loadable: false, slices: [] });
    expect(checkMachOSlices(Buffer.alloc(0), 'x64')).toEqual({ loadable: false, slices: [] });
    // ELF (a Linux .so) is not Mach-O either.
    expect(checkMachOSlices(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), 'x64').loadable).toBe(false);
    // A fat header whose records were cut off.
    expect(checkMachOSlices(fat([CPU_TYPE_ARM64]).subarray(0, 12), 'arm64').loadable).toBe(false);
    // A Java class file shares the fat magic; its version is no plausible slice count.
    const javaClass = Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x34, ...Buffer.alloc(64)]);
    expect(checkMachOSlices(javaClass, 'arm64')).toEqual({ loadable: false, slices: [] });
  });

  it('refuses an architecture macOS libraries are never built for', () => {
    expect(checkMachOSlices(fat([CPU_TYPE_ARM64, CPU_TYPE_X86_64]), 'riscv64').loadable).toBe(false);
  });

  it('names a processor it does not know by its CPU type', () => {
    expect(checkMachOSlices(fat([0x01000012]), 'arm64').slices).toEqual(['0x01000012']);
  });
});
