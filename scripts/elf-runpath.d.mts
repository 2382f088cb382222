/** The library search path an ELF shared object asks for, or undefined when it has none (see elf-runpath.mjs). */
export function readRunpath(bytes: Buffer): string | undefined;

/** A copy of the ELF file whose search path is `path`, no longer than the one it replaces. */
export function withRunpath(bytes: Buffer, path: string): Buffer;
