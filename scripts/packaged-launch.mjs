// Where electron-builder's unpacked app (`--dir`) puts the program, and what a launch of it
// must report (src/main/platform/launch-report.ts) to count as working: the page loaded from
// the archive, the preload's bridge present, and one IPC round trip answered by the library.
import { join } from 'node:path';

/**
 * The packaged program inside electron-builder's output folder, per system. Linux names it
 * after package.json's name, macOS and Windows after productName (electron-builder's defaults).
 */
export function packagedExecutable(outDir, platform, arch, { name, productName }) {
  if (platform === 'darwin') {
    const folder = arch === 'arm64' ? 'mac-arm64' : 'mac';
    return join(outDir, folder, `${productName}.app`, 'Contents', 'MacOS', productName);
  }
  if (platform === 'win32')
    return join(outDir, arch === 'arm64' ? 'win-arm64-unpacked' : 'win-unpacked', `${productName}.exe`);
  return join(outDir, arch === 'arm64' ? 'linux-arm64-unpacked' : 'linux-unpacked', name);
}

/** What is wrong with a launch report, in a sentence; undefined when the launch worked. */
export function launchProblem(report) {
  if (!report) return 'the packaged app wrote no launch report: it did not load its page';
  if (!/^file:.*\/out\/renderer\/index\.html$/.test(report.url))
    return `the packaged app loaded ${report.url || 'no page'} instead of its own renderer`;
  if (!report.bridge) return "the packaged app's page has no bridge: the preload did not run";
  if (typeof report.library !== 'number')
    return `the packaged app's library did not answer over IPC: ${report.library}`;
  return undefined;
}
