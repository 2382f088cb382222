import { describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import {
  AudioBackend,
  audioUnavailableMessage,
  loadNaudiodon,
  readFileHead,
  WrongProcessorError,
  type NativeLoadPlatform,
} from './audio-backend';
import { checkMachOSlices, CPU_TYPE_ARM64, CPU_TYPE_I386, CPU_TYPE_X86_64 } from './mach-o-slices';

const requireHere = createRequire(import.meta.url);

/** A universal library's header with these slices. */
function fatHeader(cpuTypes: number[]): Buffer {
  const header = Buffer.alloc(8 + cpuTypes.length * 20);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(cpuTypes.length, 4);
  cpuTypes.forEach((cpuType, index) => header.writeUInt32BE(cpuType, 8 + index * 20));
  return header;
}

/** A naudiodon folder laid out as installed, with only the dylibs given. */
function packageWith(dylibs: { built?: Buffer; shipped?: Buffer }): string {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-naudiodon-'));
  if (dylibs.built) {
    mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
    writeFileSync(join(dir, 'build', 'Release', 'libportaudio.dylib'), dylibs.built);
  }
  if (dylibs.shipped) {
    mkdirSync(join(dir, 'portaudio', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'portaudio', 'bin', 'libportaudio.dylib'), dylibs.shipped);
  }
  return dir;
}

const loaded = { getDevices: () => [] };

function mac(
  packageDir: string,
  arch = 'arm64',
): NativeLoadPlatform & { requireModule: ReturnType<typeof vi.fn> } {
  return {
    platform: 'darwin',
    arch,
    requireModule: vi.fn(() => loaded),
    packageDir: () => packageDir,
    readHead: readFileHead,
  };
}

const intelOnly = fatHeader([CPU_TYPE_I386, CPU_TYPE_X86_64]);
const universal = fatHeader([CPU_TYPE_X86_64, CPU_TYPE_ARM64]);

describe('loading naudiodon on macOS', () => {
  it('does not load an Intel-only PortAudio on Apple silicon (dyld would abort the app)', () => {
    const platform = mac(packageWith({ built: intelOnly, shipped: intelOnly }));
    expect(() => loadNaudiodon(platform)).toThrow(WrongProcessorError);
    expect(platform.requireModule).not.toHaveBeenCalled();
  });

  it('loads the same library on an Intel Mac', () => {
    const platform = mac(packageWith({ built: intelOnly }), 'x64');
    expect(loadNaudiodon(platform)).toBe(loaded);
    expect(platform.requireModule).toHaveBeenCalledTimes(1);
  });

  it('judges the copy beside the addon, the one dyld loads, over the one the package ships', () => {
    const fixed = mac(packageWith({ built: universal, shipped: intelOnly }));
    expect(loadNaudiodon(fixed)).toBe(loaded);
    const stale = mac(packageWith({ built: intelOnly, shipped: universal }));
    expect(() => loadNaudiodon(stale)).toThrow(/build\/Release\/libportaudio\.dylib has no arm64 slice/);
  });

  it('falls back to the shipped copy when the build put none beside the addon', () => {
    expect(() => loadNaudiodon(mac(packageWith({ shipped: intelOnly })))).toThrow(
      /portaudio\/bin\/libportaudio\.dylib has no arm64 slice \(it has i386, x86_64\)/,
    );
  });

  it('leaves a missing PortAudio to the require, whose error can be caught', () => {
    const platform = mac(packageWith({}));
    platform.requireModule.mockImplementation(() => {
      throw new Error('dlopen(naudiodon.node): Library not loaded: @rpath/libportaudio.dylib');
    });
    expect(() => loadNaudiodon(platform)).toThrow(/Library not loaded/);
  });

  it('loads the PortAudio the installed naudiodon ships on Apple silicon and on Intel Macs', () => {
    // package.json installs naudiodon2 under naudiodon's name: the same addon with a universal
    // PortAudio (arm64 and x86_64). The original naudiodon shipped i386 and x86_64 only and
    // would be refused here; this reads the real file, so a return to it fails this test.
    const realDir = dirname(requireHere.resolve('naudiodon/package.json'));
    for (const arch of ['arm64', 'x64']) {
      const platform = mac(realDir, arch);
      expect(loadNaudiodon(platform)).toBe(loaded);
    }
    const check = checkMachOSlices(
      readFileHead(join(realDir, 'portaudio', 'bin', 'libportaudio.dylib'))!,
      'arm64',
    );
    expect(check.slices).toEqual(['x86_64', 'arm64']);
  });
});

describe('loading naudiodon elsewhere', () => {
  it('requires it straight away on Linux and Windows: no Mach-O to check', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const readHead = vi.fn(readFileHead);
      const requireModule = vi.fn(() => loaded);
      expect(
        loadNaudiodon({ platform, arch: 'arm64', requireModule, packageDir: () => '/nowhere', readHead }),
      ).toBe(loaded);
      expect(readHead).not.toHaveBeenCalled();
    }
  });
});

describe('the sentence for the journalist', () => {
  const cases: [string, Error, RegExp][] = [
    [
      'an addon built for another Node or Electron',
      new Error(
        "The module '/app/node_modules/naudiodon/build/Release/naudiodon.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 139. This version of Node.js requires\nNODE_MODULE_VERSION 115.",
      ),
      /built for a different version of the app\. .*Reinstalling Verbatim should fix this\.$/,
    ],
    [
      'a missing libportaudio on Linux',
      new Error('libportaudio.so.2: cannot open shared object file: No such file or directory'),
      /a sound library it needs \(PortAudio\) is missing/,
    ],
    [
      'a missing libportaudio on macOS',
      new Error("dlopen(/x/naudiodon.node, 0x0001): Library not loaded: '@rpath/libportaudio.dylib'"),
      /a sound library it needs \(PortAudio\) is missing/,
    ],
    [
      'a missing portaudio_x64.dll on Windows',
      new Error('\\\\?\\C:\\Verbatim\\naudiodon.node: The specified module could not be found.'),
      /a sound library it needs \(PortAudio\) is missing/,
    ],
    [
      'an addon the build never made',
      new Error('Could not locate the bindings file. Tried:\n → /x/build/naudiodon.node'),
      /its sound component is missing from this installation/,
    ],
    [
      'a library for another processor, which dyld names as it refuses it',
      new Error(
        "dlopen(/x/naudiodon.node, 0x0001): tried: '/x/libportaudio.dylib' (mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64'))",
      ),
      /its sound component does not run on this computer's processor\. Everything else works; only the spoken assistant needs them\.$/,
    ],
    ['anything else', new Error('boom'), /its sound component could not be started/],
  ];

  it.each(cases)('explains %s plainly, and that the rest of the app works', (_what, error, expected) => {
    const message = audioUnavailableMessage(error);
    expect(message).toMatch(/^Verbatim cannot use the microphone or speaker on this computer: /);
    expect(message).toMatch(/Everything else works/);
    expect(message).toMatch(expected);
    // No file paths, module versions or dlopen jargon for the journalist.
    expect(message).not.toMatch(/NODE_MODULE_VERSION|dlopen|\.node|\/x\//);
  });

  it('says an Intel-only library does not run on an Apple processor, without promising a reinstall fixes it', () => {
    const message = audioUnavailableMessage(
      new WrongProcessorError('/x/libportaudio.dylib', 'arm64', {
        loadable: false,
        slices: ['i386', 'x86_64'],
      }),
    );
    expect(message).toMatch(/made for Intel Macs only, and this Mac has an Apple processor\./);
    expect(message).not.toMatch(/Reinstall/);
  });

  it('turns a real failed require into the "missing" sentence', () => {
    let failure: unknown;
    try {
      requireHere('naudiodon-that-is-not-installed');
    } catch (error) {
      failure = error;
    }
    expect(audioUnavailableMessage(failure)).toMatch(/its sound component is missing from this installation/);
  });
});

describe('the backend, loaded once', () => {
  it('is unavailable with the reason when the load throws, said once in the log, never thrown raw', () => {
    const log = vi.fn();
    const load = vi.fn((): never => {
      throw new Error('libportaudio.so.2: cannot open shared object file: No such file or directory');
    });
    const backend = new AudioBackend(load, log);
    const message = backend.unavailable();
    expect(message).toMatch(
      /^Verbatim cannot use the microphone or speaker on this computer: a sound library/,
    );
    expect(backend.unavailable()).toBe(message);
    let thrown: unknown;
    try {
      backend.module();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VerbatimError);
    expect((thrown as VerbatimError).message).toBe(message);
    expect(load).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledTimes(1);
    // The log keeps the technical cause for whoever reads it.
    expect(log.mock.calls[0]![0]).toContain('libportaudio.so.2: cannot open shared object file');
  });

  it('logs to the console by default', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      new AudioBackend(() => {
        throw new Error('boom');
      }).unavailable();
      expect(error).toHaveBeenCalledTimes(1);
      expect(String(error.mock.calls[0]![0])).toMatch(
        /audio unavailable: Verbatim cannot use the microphone/,
      );
    } finally {
      error.mockRestore();
    }
  });

  it('tells the app’s log once it is given one', () => {
    const first = vi.fn();
    const appLog = vi.fn();
    const backend = new AudioBackend(() => {
      throw new Error('boom');
    }, first);
    backend.logTo(appLog);
    backend.unavailable();
    expect(first).not.toHaveBeenCalled();
    expect(appLog).toHaveBeenCalledTimes(1);
  });

  it('hands out the module when it loads, loading it once', () => {
    const load = vi.fn(() => loaded);
    const log = vi.fn();
    const backend = new AudioBackend(load, log);
    expect(backend.unavailable()).toBeUndefined();
    expect(backend.module()).toBe(loaded);
    expect(load).toHaveBeenCalledTimes(1);
    expect(log).not.toHaveBeenCalled();
  });
});
