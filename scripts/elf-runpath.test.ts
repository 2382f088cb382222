import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readRunpath, withRunpath } from './elf-runpath.mjs';

const require = createRequire(import.meta.url);

/** A real shared object from the C compiler npm install already needs, recording `rpath`. */
function compiledLibrary(rpath: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-elf-'));
  writeFileSync(join(dir, 'empty.c'), 'int verbatim_marker(void) { return 1; }\n');
  execFileSync('cc', [
    '-shared',
    '-fPIC',
    '-o',
    join(dir, 'lib.so'),
    join(dir, 'empty.c'),
    `-Wl,-rpath,${rpath}`,
  ]);
  return readFileSync(join(dir, 'lib.so'));
}

/** What readelf, the reference reader, says the file's search path is. */
function readelfRunpath(bytes: Buffer): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-elf-'));
  writeFileSync(join(dir, 'lib.so'), bytes);
  const dynamic = execFileSync('readelf', ['-d', join(dir, 'lib.so')], { encoding: 'utf8' });
  return /\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]/.exec(dynamic)?.[1];
}

// ELF is Linux's format (macOS addons find PortAudio through @loader_path, Windows beside
// the .node by default): elsewhere vitest lists these as skipped under this title.
describe.runIf(process.platform === 'linux')('ELF library search path (Linux only)', () => {
  it('reads the absolute path a build recorded and rewrites it to $ORIGIN, as readelf confirms', () => {
    const library = compiledLibrary('/home/builder/project/node_modules/naudiodon/build/Release');
    expect(readRunpath(library)).toBe('/home/builder/project/node_modules/naudiodon/build/Release');
    const rewritten = withRunpath(library, '$ORIGIN');
    expect(readRunpath(rewritten)).toBe('$ORIGIN');
    expect(readelfRunpath(rewritten)).toBe('$ORIGIN');
    expect(rewritten.length).toBe(library.length);
  });

  it('refuses a longer path, a file without one, and what is not ELF', () => {
    expect(() => withRunpath(compiledLibrary('/a'), '$ORIGIN')).toThrow(/longer than the one recorded/);
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-elf-'));
    writeFileSync(join(dir, 'plain.c'), 'int f(void) { return 0; }\n');
    execFileSync('cc', ['-shared', '-fPIC', '-o', join(dir, 'plain.so'), join(dir, 'plain.c')]);
    const plain = readFileSync(join(dir, 'plain.so'));
    expect(readRunpath(plain)).toBeUndefined();
    expect(() => withRunpath(plain, '$ORIGIN')).toThrow(/no library search path/);
    expect(
      readRunpath(Buffer.from('MZ not an ELF file at all, just some bytes long enough to parse')),
    ).toBeUndefined();
  });

  it('the installed naudiodon, copied away from its build tree, loads the PortAudio beside it', () => {
    // After `npm install` and native-abi (npm test's pretest), as electron-builder copies it.
    const naudiodon = dirname(require.resolve('naudiodon/package.json'));
    const addon = join(naudiodon, 'build', 'Release', 'naudiodon.node');
    expect(readRunpath(readFileSync(addon))).toBe('$ORIGIN');

    const copy = mkdtempSync(join(tmpdir(), 'verbatim-packed-'));
    for (const name of ['naudiodon', 'segfault-handler', 'bindings', 'file-uri-to-path']) {
      cpSync(dirname(require.resolve(`${name}/package.json`)), join(copy, 'node_modules', name), {
        recursive: true,
      });
    }
    // LD_DEBUG makes the system's loader say where it looked for each library and what it loaded.
    const loaded = spawnSync(process.execPath, ['-e', "require('naudiodon')"], {
      cwd: copy,
      env: { ...process.env, LD_DEBUG: 'libs' },
      encoding: 'utf8',
    });
    expect(loaded.status, loaded.stderr).toBe(0);
    const calls = loaded.stderr.split('\n').filter((line) => line.includes('libportaudio.so.2'));
    const copiedRelease = join(copy, 'node_modules', 'naudiodon', 'build', 'Release');
    expect(
      calls.some((line) => line.includes(`calling init: ${join(copiedRelease, 'libportaudio.so.2')}`)),
    ).toBe(true);
    // The build tree is never even looked at.
    expect(calls.filter((line) => line.includes(join(naudiodon, 'build')))).toEqual([]);
  });
});
