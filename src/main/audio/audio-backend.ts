import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import { checkMachOSlices, type SliceCheck } from './mach-o-slices';

/**
 * Loading the native sound backend (naudiodon) so that a failure costs the assistant only,
 * never the app. A failure — an addon built for another Node or Electron, a missing
 * libportaudio, a library without the Mac's processor in it — becomes one sentence a journalist
 * understands, logged once, and the assistant shows it instead of starting.
 */

/** What loading needs from the machine, injected so each failure can be staged in a test. */
export interface NativeLoadPlatform {
  platform: NodeJS.Platform;
  arch: string;
  /** require('naudiodon'): the moment the addon and its libraries are loaded. */
  requireModule: () => unknown;
  /** The naudiodon package's folder. */
  packageDir: () => string;
  /** The first bytes of a file, or undefined when it cannot be read. */
  readHead: (path: string) => Uint8Array | undefined;
}

/**
 * Where naudiodon's PortAudio is, most relevant first. The addon finds it through
 * `@rpath` = `@loader_path`, i.e. the copy its build put beside it in build/Release; the copy
 * the package ships in portaudio/bin stands in when the build's copy is not there.
 */
export const portAudioDylibPaths = (packageDir: string): string[] => [
  join(packageDir, 'build', 'Release', 'libportaudio.dylib'),
  join(packageDir, 'portaudio', 'bin', 'libportaudio.dylib'),
];

/** Refused before loading: requiring would have aborted the process. */
export class WrongProcessorError extends Error {
  constructor(
    readonly path: string,
    readonly arch: string,
    readonly check: SliceCheck,
  ) {
    super(
      `${path} has no ${arch} slice (it has ${check.slices.length > 0 ? check.slices.join(', ') : 'no Mach-O header'})`,
    );
    this.name = 'WrongProcessorError';
  }
}

/**
 * Requires naudiodon, after checking on macOS that its PortAudio can run on this processor.
 * Throws what went wrong; a missing dylib is left to the require, whose error is catchable.
 */
export function loadNaudiodon(platform: NativeLoadPlatform): unknown {
  if (platform.platform === 'darwin') {
    for (const path of portAudioDylibPaths(platform.packageDir())) {
      const head = platform.readHead(path);
      if (!head) continue;
      const check = checkMachOSlices(head, platform.arch);
      if (!check.loadable) throw new WrongProcessorError(path, platform.arch, check);
      break;
    }
  }
  return platform.requireModule();
}

/** The first bytes of a file: enough for a fat header listing every slice. */
export function readFileHead(path: string, size = 4096): Uint8Array | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(size);
    return buffer.subarray(0, readSync(fd, buffer, 0, size, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const reinstall = 'Reinstalling Verbatim should fix this.';

/** The failure in plain words, and what the journalist can do about it, if anything. */
function plainReason(error: unknown): { reason: string; advice?: string } {
  if (error instanceof WrongProcessorError) {
    const intelOnly =
      error.check.slices.length > 0 && error.check.slices.every((s) => /^(i386|x86_64)$/.test(s));
    return {
      reason:
        error.arch === 'arm64' && intelOnly
          ? 'the sound component it comes with is made for Intel Macs only, and this Mac has an Apple processor'
          : "the sound component it comes with does not run on this Mac's processor",
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  if (/NODE_MODULE_VERSION|compiled against a different Node\.js version/i.test(text)) {
    return { reason: 'its sound component was built for a different version of the app', advice: reinstall };
  }
  if (/Could not locate the bindings file|Cannot find module/i.test(text)) {
    return { reason: 'its sound component is missing from this installation', advice: reinstall };
  }
  // Before "missing": dyld's wrong-architecture error names the libportaudio it tried.
  if (/incompatible architecture|wrong ELF class|not a valid Win32 application/i.test(text)) {
    return { reason: "its sound component does not run on this computer's processor" };
  }
  // Linux: "libportaudio.so.2: cannot open shared object file"; macOS: "Library not loaded:
  // @rpath/libportaudio.dylib"; Windows names no file: "The specified module could not be found".
  if (/portaudio|specified module could not be found/i.test(text)) {
    return { reason: 'a sound library it needs (PortAudio) is missing', advice: reinstall };
  }
  return { reason: 'its sound component could not be started', advice: reinstall };
}

/** The sentence the assistant shows in place of its Start button's effect. */
export function audioUnavailableMessage(error: unknown): string {
  const { reason, advice } = plainReason(error);
  const message = `Verbatim cannot use the microphone or speaker on this computer: ${reason}. Everything else works; only the spoken assistant needs them.`;
  return advice ? `${message} ${advice}` : message;
}

/**
 * The backend, loaded on first use and remembered either way: loaded, or unavailable with the
 * reason. A failed native load does not get better by trying again, and saying it once in the
 * log is enough.
 */
export class AudioBackend<T> {
  private state: { module: T } | { unavailable: string } | undefined;

  constructor(
    private readonly load: () => T,
    private log: (line: string) => void = (line) => console.error(`[verbatim] ${line}`),
  ) {}

  /** Where the reason goes once the app's log is open (the backend is made before it is). */
  logTo(log: (line: string) => void): void {
    this.log = log;
  }

  /** Undefined when the backend works; otherwise why not, for the journalist. Loads it if need be. */
  unavailable(): string | undefined {
    const state = this.resolve();
    return 'unavailable' in state ? state.unavailable : undefined;
  }

  /** The loaded module; a VerbatimError carrying the sentence when it is unavailable. */
  module(): T {
    const state = this.resolve();
    if ('unavailable' in state) throw new VerbatimError('internal', state.unavailable);
    return state.module;
  }

  private resolve(): { module: T } | { unavailable: string } {
    if (this.state) return this.state;
    try {
      this.state = { module: this.load() };
    } catch (error) {
      const unavailable = audioUnavailableMessage(error);
      this.state = { unavailable };
      const detail = error instanceof Error ? error.message : String(error);
      this.log(`audio unavailable: ${unavailable} (${detail})`);
    }
    return this.state;
  }
}
