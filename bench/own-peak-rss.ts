import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The peak resident memory of this process's own address space (Linux's VmHWM).
 * `process.resourceUsage().maxRSS` is not that: Linux carries a parent's resident size at the
 * fork into its child's maxRSS across the exec, so a child spawned by a 218 MB bench process
 * reported 218 MB however little it used.
 */
export function ownPeakRss(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  if (!match) throw new Error('/proc/self/status has no VmHWM line: this measurement needs Linux.');
  return Number(match[1]) * 1024;
}

/** Starts the peak over from the present size, so what came before (loading the code) is not counted. */
export function resetOwnPeakRss(): void {
  // "5" resets the high-water mark (Documentation/filesystems/proc.rst, clear_refs).
  writeFileSync('/proc/self/clear_refs', '5');
}
