/** What readAddonAbi found (see packed-app.mjs). */
export type AddonAbi =
  | { kind: 'node'; abi: number; offset: number; via: string }
  | { kind: 'node-api' }
  | { kind: 'unknown'; reason: string };

/** The ABI a native addon was built for, read from its bytes (ELF; Mach-O and PE are unknown). */
export function readAddonAbi(bytes: Buffer): AddonAbi;

/** The shared libraries an ELF file asks the loader for (DT_NEEDED); [] when not ELF. */
export function readNeededLibraries(bytes: Buffer): string[];

/** @electron/fuses' marker, which the fuse wire follows. */
export const FUSE_SENTINEL: string;

/** An Electron binary's fuse wire: version and each fuse's state ('0', '1', 'r') by index. */
export function readFuseWire(bytes: Buffer): { version: number; states: string[] } | undefined;

/** Every native addon (.node) under a packed app's folder, relative and '/'-separated. */
export function findAddons(appOutDir: string): string[];

/** The packaging guard's verdict: a line per addon, and those built for another ABI. */
export function checkAddonAbis(options: {
  appOutDir: string;
  electronVersion: string;
  electronAbi: number;
  abiOwner?: (abi: number) => string | undefined;
}): { lines: string[]; wrong: { path: string; abi: number; message: string }[] };
