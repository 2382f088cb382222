// Packs the real app the way `npm run dist` does (electron-builder, electron-builder.yml, the
// built out/ and node_modules), as the unpacked Linux folder (`--linux dir`), and inspects what
// a user would install. Electron itself cannot be downloaded here, so electron-builder is given
// a stand-in Electron folder (electronDist): one executable named `electron` carrying a fuse
// wire in @electron/fuses' format with Electron's own default states, so the fuse flipping
// runs for real and its result can be read back.
//
// It needs `npm run build` to have run (the pack takes out/ as it is): npm test should build
// before its unit tests (see the report of issue #17).
//
// The native addons in node_modules are Node's builds while tests run (npm test's pretest swaps
// them in; Electron's cannot be built offline). So this test proves two things at once: the
// packaging guard (scripts/packed-app-after-pack.mjs) refuses such a pack, and, with the one
// variable that downgrades the refusal to a report, the rest of the pack is right; the ABI it
// reads from each packed addon is this Node's (process.versions.modules).
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { Script } from 'node:vm';
import { extractFile, listPackage, statFile } from '@electron/asar';
import { FuseV1Options } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dejaVuFonts } from '../src/main/core/export/fonts';
import { readRunpath } from './elf-runpath.mjs';
import {
  checkAddonAbis,
  FUSE_SENTINEL,
  findAddons,
  readAddonAbi,
  readFuseWire,
  readNeededLibraries,
  type AddonAbi,
} from './packed-app.mjs';

const root = join(import.meta.dirname, '..');
const requireFromRoot = createRequire(join(root, 'package.json'));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const config = (requireFromRoot('js-yaml') as { load(text: string): unknown }).load(
  readFileSync(join(root, 'electron-builder.yml'), 'utf8'),
) as { productName: string; electronFuses: Record<string, boolean> };
const electronVersion = (
  JSON.parse(readFileSync(requireFromRoot.resolve('electron/package.json'), 'utf8')) as { version: string }
).version;
const electronAbi = Number(
  (requireFromRoot('node-abi') as { getAbi(version: string, runtime: string): string }).getAbi(
    electronVersion,
    'electron',
  ),
);
const nodeAbi = Number(process.versions.modules);
const nodeMajor = process.versions.node.split('.')[0];
const allowWrongAbi = 'VERBATIM_ALLOW_WRONG_ABI';

/** Electron's default fuse states (its fuses documentation), which electronFuses must change. */
const electronDefaultFuses: Record<keyof typeof FuseV1Options, '0' | '1'> = {
  RunAsNode: '1',
  EnableCookieEncryption: '0',
  EnableNodeOptionsEnvironmentVariable: '1',
  EnableNodeCliInspectArguments: '1',
  EnableEmbeddedAsarIntegrityValidation: '0',
  OnlyLoadAppFromAsar: '0',
  LoadBrowserProcessSpecificV8Snapshot: '0',
  GrantFileProtocolExtraPrivileges: '1',
};
/** A fuse's index on the wire, from electron-builder.yml's name for it (runAsNode → RunAsNode). */
const fuseIndex = (name: string) =>
  FuseV1Options[(name[0]!.toUpperCase() + name.slice(1)) as keyof typeof FuseV1Options];

/** Sentinel, wire version 1, wire length, then one '0'/'1' a fuse, as Electron's binary holds them. */
function standInElectron(): Buffer {
  const states = Object.entries(electronDefaultFuses)
    .sort(
      ([a], [b]) =>
        FuseV1Options[a as keyof typeof FuseV1Options] - FuseV1Options[b as keyof typeof FuseV1Options],
    )
    .map(([, state]) => state)
    .join('');
  return Buffer.concat([
    Buffer.from(`#!/bin/sh\necho "a stand-in for Electron ${electronVersion}, not Electron"\nexit 1\n# `),
    Buffer.from(FUSE_SENTINEL, 'latin1'),
    Buffer.from([1, states.length]),
    Buffer.from(states, 'latin1'),
    Buffer.from('\n'),
  ]);
}

interface Run {
  status: number | null;
  output: string;
  seconds: number;
}

function electronBuilder(standIn: string, output: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const started = Date.now();
  const args = [
    requireFromRoot.resolve('electron-builder/cli.js'),
    '--linux',
    'dir',
    '--publish',
    'never',
    `-c.electronDist=${standIn}`,
    `-c.directories.output=${output}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output: text, seconds: (Date.now() - started) / 1000 }));
  });
}

/** Every file under a folder, relative and '/'-separated, with its size. */
function filesUnder(dir: string): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path).split(sep).join('/'), statSync(path).size);
    }
  };
  if (existsSync(dir)) walk(dir);
  return files;
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const linux = process.platform === 'linux';

describe.runIf(linux)('the packed Linux app (electron-builder --linux dir, a stand-in Electron)', () => {
  let temp = '';
  let allowed: Run;
  let refused: Run;
  let appDir = '';
  let archive = '';
  let unpackedDir = '';
  /** The archive's entries, as '/node_modules/x/…' paths (directories too). */
  let entries: string[] = [];
  let standInBytes: Buffer = Buffer.alloc(0);

  beforeAll(async () => {
    for (const built of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
      if (!existsSync(join(root, built))) {
        throw new Error(
          `${built} is missing: run \`npm run build\` before this test (it packs out/ as it is).`,
        );
      }
    }
    temp = mkdtempSync(join(tmpdir(), 'verbatim-packed-app-'));
    const standIn = join(temp, 'electron-dist');
    mkdirSync(standIn);
    standInBytes = standInElectron();
    writeFileSync(join(standIn, 'electron'), standInBytes, { mode: 0o755 });
    const env = { ...process.env };
    delete env[allowWrongAbi];
    // Two packs side by side: one as `npm run dist` would make it, which the guard must refuse,
    // and one with the refusal downgraded to a report.
    [allowed, refused] = await Promise.all([
      electronBuilder(standIn, join(temp, 'allowed'), { ...env, [allowWrongAbi]: '1' }),
      electronBuilder(standIn, join(temp, 'refused'), env),
    ]);
    console.log(
      `electron-builder --linux dir: ${allowed.seconds.toFixed(1)} s (packed with ${allowWrongAbi}=1), ` +
        `${refused.seconds.toFixed(1)} s (refused), side by side`,
    );
    if (allowed.status !== 0) throw new Error(`electron-builder failed:\n${allowed.output}`);
    const unpacked = readdirSync(join(temp, 'allowed')).filter((name) => name.endsWith('-unpacked'));
    expect(unpacked, 'electron-builder made one unpacked app folder').toHaveLength(1);
    appDir = join(temp, 'allowed', unpacked[0]!);
    archive = join(appDir, 'resources', 'app.asar');
    unpackedDir = join(appDir, 'resources', 'app.asar.unpacked');
    entries = listPackage(archive, { isPack: false }).map((entry) => entry.split(sep).join('/'));
  }, 180_000);

  afterAll(() => {
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  /** An archive entry's header: where it is, whether it lives in app.asar.unpacked. */
  const entry = (path: string) =>
    statFile(archive, path) as { size?: number; unpacked?: boolean; files?: object };
  const inArchive = (path: string) => entries.includes(`/${path}`);

  it('refuses a pack whose native addons are built for Node, not Electron, and says what to run', () => {
    // The guard can only be shown failing while the addons are another ABI than Electron's.
    expect(nodeAbi, "this Node's ABI differs from Electron's").not.toBe(electronAbi);
    expect(refused.status, refused.output).not.toBe(0);
    expect(refused.output).toContain(
      `better_sqlite3.node is built for Node ${nodeMajor}'s ABI ${nodeAbi}, Electron ${electronVersion} needs ${electronAbi}: ` +
        'run `node scripts/native-abi.mjs electron`',
    );
    // The refusal comes before the fuses are flipped (electron-builder's last step).
    expect(refused.output).not.toContain('executing @electron/fuses');
  });

  it(`packs the same app with ${allowWrongAbi}=1, reporting the wrong ABI instead of refusing`, () => {
    expect(allowed.status).toBe(0);
    expect(allowed.output).toContain(`${allowWrongAbi}=1: packaged anyway, and this app cannot run`);
    expect(allowed.output).toContain(`better_sqlite3.node is built for Node ${nodeMajor}'s ABI ${nodeAbi}`);
  });

  it("lets through a pack whose addons are Electron's ABI: the guard's verdict on the same pack", () => {
    // What the hook decides, asked as if the packed Electron loaded this Node's ABI: nothing is
    // refused, so the refusal above comes from the ABI and not from the guard always failing.
    const asIfMatching = checkAddonAbis({ appOutDir: appDir, electronVersion, electronAbi: nodeAbi });
    expect(asIfMatching.wrong).toEqual([]);
    expect(asIfMatching.lines.length).toBe(findAddons(appDir).length);
    // As packed: every addon that carries an ABI (not Node-API) is refused, better-sqlite3's first.
    const carryingAnAbi = findAddons(appDir).filter(
      (path) => readAddonAbi(readFileSync(join(appDir, path))).kind === 'node',
    );
    const asPacked = checkAddonAbis({ appOutDir: appDir, electronVersion, electronAbi });
    expect(asPacked.wrong.map((addon) => addon.path)).toEqual(carryingAnAbi);
    expect(carryingAnAbi.map((path) => path.split('/').pop())).toContain('better_sqlite3.node');
  });

  it("flips Electron's fuses as electron-builder.yml sets them: no run-as-node, NODE_OPTIONS or --inspect", () => {
    const executable = join(appDir, config.productName.toLowerCase());
    expect(statSync(executable).mode & 0o111, 'the app program is executable').not.toBe(0);
    const before = readFuseWire(standInBytes)!;
    const after = readFuseWire(readFileSync(executable));
    expect(after?.version).toBe(1);
    expect(after?.states).toHaveLength(before.states.length);
    // The security-relevant ones, named here so a change in the yml cannot quietly relax them;
    // each starts the other way in Electron (and in the stand-in), so only a flip passes.
    const state = (name: keyof typeof FuseV1Options) => after?.states[FuseV1Options[name]];
    expect(before.states[FuseV1Options.RunAsNode]).toBe('1');
    expect(state('RunAsNode')).toBe('0');
    expect(state('EnableNodeOptionsEnvironmentVariable')).toBe('0');
    expect(state('EnableNodeCliInspectArguments')).toBe('0');
    expect(state('OnlyLoadAppFromAsar')).toBe('1');
    expect(state('EnableEmbeddedAsarIntegrityValidation')).toBe('1');
    // And every fuse the yml sets is as it says; the others keep Electron's default.
    const expected = [...before.states];
    for (const [name, on] of Object.entries(config.electronFuses)) {
      expect(fuseIndex(name), `electronFuses.${name} is a fuse @electron/fuses knows`).toBeDefined();
      expected[fuseIndex(name)] = on ? '1' : '0';
    }
    expect(after?.states).toEqual(expected);
  });

  it('holds the built app (main, preload, renderer) inside app.asar, the preload as CommonJS', () => {
    const built = [...filesUnder(join(root, 'out'))].filter(
      ([path]) => /^(main|preload|renderer)\//.test(path) && !path.endsWith('.map'),
    );
    expect(built.map(([path]) => path)).toEqual(
      expect.arrayContaining(['main/index.js', 'preload/index.cjs', 'renderer/index.html']),
    );
    for (const [path, size] of built) {
      expect(entry(`out/${path}`), `out/${path} is in app.asar`).toMatchObject({ size });
      expect(entry(`out/${path}`).unpacked, `out/${path} is not unpacked`).toBeFalsy();
    }
    // Only what the app runs: no source maps, not the web host's bridge.
    expect(entries.filter((path) => path.endsWith('.map') || path.startsWith('/out/web-bridge'))).toEqual([]);
    const packedManifest = JSON.parse(extractFile(archive, 'package.json').toString()) as { main: string };
    expect(inArchive(packedManifest.main), `package.json's main (${packedManifest.main}) is packed`).toBe(
      true,
    );
    // A sandboxed preload must be CommonJS: it compiles as the body of Node's CommonJS wrapper
    // (an import or export statement, or import.meta, would be a syntax error there).
    const preload = extractFile(archive, 'out/preload/index.cjs').toString();
    expect(
      () => new Script(`(function (exports, require, module, __filename, __dirname) {${preload}\n})`),
    ).not.toThrow();
    expect(preload).toMatch(/require\(["']electron["']\)/);
  });

  it("unpacks every native addon, and each is built for this Node's ABI, read from the binary", () => {
    const addons = findAddons(appDir);
    const read = new Map<string, AddonAbi>(
      addons.map((path) => [path, readAddonAbi(readFileSync(join(appDir, path)))]),
    );
    console.log(
      `Native addons in the pack (this Node's ABI is ${nodeAbi}, Electron ${electronVersion}'s ${electronAbi}):\n` +
        [...read]
          .map(
            ([path, found]) =>
              `  ${path}: ${found.kind === 'node' ? `ABI ${found.abi}, from ${found.via}` : found.kind}`,
          )
          .join('\n'),
    );
    // The two the app requires itself must be among them (a walk that found nothing would pass
    // every check below).
    const names = addons.map((path) => path.split('/').pop());
    expect(names).toEqual(expect.arrayContaining(['better_sqlite3.node', 'naudiodon.node']));
    for (const path of addons) {
      expect(path, 'an addon lives in app.asar.unpacked').toMatch(/^resources\/app\.asar\.unpacked\//);
      const inside = path.slice('resources/app.asar.unpacked/'.length);
      expect(entry(inside).unpacked, `app.asar sends ${inside} to the unpacked folder`).toBe(true);
      const found = read.get(path)!;
      expect(found.kind, `${path}: ${JSON.stringify(found)}`).not.toBe('unknown');
      if (found.kind === 'node') expect(found.abi, path).toBe(nodeAbi);
    }
    // better-sqlite3 (NAN, NODE_MODULE_INIT) carries an ABI; naudiodon is built on Node-API.
    const byName = (name: string) => read.get(addons.find((path) => path.endsWith(`/${name}`))!);
    expect(byName('better_sqlite3.node')).toMatchObject({ kind: 'node', abi: nodeAbi });
    expect(byName('naudiodon.node')).toEqual({ kind: 'node-api' });
  });

  it('reads the ABI from the bytes: the number changed in a copy reads back changed', () => {
    for (const path of findAddons(appDir)) {
      const bytes = readFileSync(join(appDir, path));
      const found = readAddonAbi(bytes);
      if (found.kind !== 'node') continue;
      const changed = Buffer.from(bytes);
      if (found.via.startsWith('its exported symbol')) changed.write('999', found.offset, 'latin1');
      else changed.writeInt32LE(999, found.offset);
      expect(readAddonAbi(changed), path).toMatchObject({ kind: 'node', abi: 999 });
    }
    // Not an addon, or a format the reader leaves alone: reported, never given an ABI.
    const library = readFileSync(join(unpackedDir, 'node_modules/naudiodon/build/Release/libportaudio.so.2'));
    const reason = (found: AddonAbi) => (found.kind === 'unknown' ? found.reason : `read as ${found.kind}`);
    expect(reason(readAddonAbi(library))).toContain('not a Node addon');
    expect(reason(readAddonAbi(Buffer.from('cffaedfe07000001', 'hex')))).toContain('Mach-O');
    expect(reason(readAddonAbi(Buffer.from('MZ\x90\x00', 'latin1')))).toContain('PE');
  });

  it('has naudiodon load the PortAudio beside it ($ORIGIN), and every bundled library it needs sits beside it', () => {
    const naudiodon = join(unpackedDir, 'node_modules/naudiodon/build/Release/naudiodon.node');
    const bytes = readFileSync(naudiodon);
    expect(readNeededLibraries(bytes)).toContain('libportaudio.so.2');
    expect(readRunpath(bytes), "naudiodon.node's library search path").toBe('$ORIGIN');
    expect(existsSync(join(dirname(naudiodon), 'libportaudio.so.2'))).toBe(true);
    // Any addon: a library it needs that the app ships (not the system's) must be beside it,
    // and the addon must look there.
    const shipped = [...filesUnder(appDir).keys()];
    for (const path of findAddons(appDir)) {
      const addon = readFileSync(join(appDir, path));
      for (const library of readNeededLibraries(addon)) {
        const copies = shipped.filter((file) => file.split('/').pop() === library);
        if (copies.length === 0) continue;
        expect(copies, `${library}, which ${path} needs`).toContain(
          join(dirname(path), library).split(sep).join('/'),
        );
        expect(readRunpath(addon), `${path} looks beside itself for ${library}`).toBe('$ORIGIN');
      }
    }
  });

  it("ships the PDF fonts and pdfkit's font data inside the archive", () => {
    // The fonts the PDF export embeds, as src/main/core/export/fonts.ts resolves them.
    const { regular, bold } = dejaVuFonts();
    const fonts = [regular, bold].map((path) => relative(root, path).split(sep).join('/'));
    const pdfkitData = [...filesUnder(join(root, 'node_modules/pdfkit/js/data'))].map(
      ([path, size]) => [`node_modules/pdfkit/js/data/${path}`, size] as const,
    );
    expect(pdfkitData.filter(([path]) => path.endsWith('.afm')).length, "pdfkit's AFM files").toBeGreaterThan(
      0,
    );
    for (const [path, size] of [
      ...fonts.map((path) => [path, statSync(join(root, path)).size] as const),
      ...pdfkitData,
    ]) {
      expect(entry(path), `${path} is in app.asar`).toMatchObject({ size });
    }
    // pdfkit 0.20 takes the 14 standard fonts' metrics from these modules.
    expect(inArchive('node_modules/pdfkit/js/standard-fonts/Helvetica.cjs')).toBe(true);
  });

  it('packs no devDependency', () => {
    // docx lists @types/node among its dependencies; electron-builder.yml leaves type
    // declarations out, so even a devDependency the production tree asks for is not packed.
    // A production dependency may bring its own copy of a package we also use as a dev tool
    // (better-sqlite3's prebuild-install needs node-abi 3; our scripts use node-abi 4), and
    // electron-builder hoists that copy: packed, it is the dependency's version, not ours.
    const unpacked = [...filesUnder(unpackedDir).keys()];
    const installedVersion = (name: string): string =>
      (
        JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    const packedVersion = (name: string): string | undefined =>
      inArchive(`node_modules/${name}/package.json`)
        ? (
            JSON.parse(extractFile(archive, `node_modules/${name}/package.json`).toString()) as {
              version: string;
            }
          ).version
        : undefined;
    const packed = Object.keys(manifest.devDependencies).filter(
      (name) =>
        packedVersion(name) === installedVersion(name) ||
        unpacked.some((path) => path.startsWith(`node_modules/${name}/`)),
    );
    expect(packed).toEqual([]);
    // Type declarations are never loaded at run time, whoever asks for them.
    expect(entries.filter((path) => /^\/node_modules\/(@types|undici-types)(\/|$)/.test(path))).toEqual([]);
    // The production dependencies are there (the check above would pass on an empty pack).
    for (const name of Object.keys(manifest.dependencies))
      expect(inArchive(`node_modules/${name}`), name).toBe(true);
  });

  it('unpacks nothing but the addons and the libraries they load, and packs no native sources', () => {
    const unpacked = [...filesUnder(unpackedDir).keys()].sort();
    console.log(`app.asar.unpacked:\n${unpacked.map((path) => `  ${path}`).join('\n')}`);
    const needed = new Set<string>();
    for (const path of unpacked.filter((file) => file.endsWith('.node'))) {
      needed.add(path);
      for (const library of readNeededLibraries(readFileSync(join(unpackedDir, path)))) {
        const beside = join(dirname(path), library).split(sep).join('/');
        if (unpacked.includes(beside)) needed.add(beside);
      }
    }
    expect(unpacked).toEqual([...needed].sort());
    // The archive's header agrees: nothing else is marked unpacked.
    const markedUnpacked = entries.filter((path) => {
      const header = entry(path.slice(1));
      return header.unpacked === true && header.files === undefined;
    });
    expect(markedUnpacked.map((path) => path.slice(1)).sort()).toEqual(unpacked);
    // What the native modules are built from (C, C++, gyp files, objects) is not packed at all.
    const nativeSources = /\.(c|cc|cpp|cxx|h|hh|hpp|gyp|gypi|o|a|obj|lib|mk)$|\/Makefile$/;
    expect(entries.filter((path) => nativeSources.test(path))).toEqual([]);
  });

  it('reports its size, well under a generous ceiling', () => {
    const total = [...filesUnder(appDir).values()].reduce((sum, size) => sum + size, 0);
    const asarSize = statSync(archive).size;
    const unpackedSize = [...filesUnder(unpackedDir).values()].reduce((sum, size) => sum + size, 0);
    console.log(
      `Packed app (a stand-in of ${standInBytes.length} bytes for Electron, whose own files add about 250 MB): ` +
        `${megabytes(total)} in all; app.asar ${megabytes(asarSize)}, app.asar.unpacked ${megabytes(unpackedSize)}`,
    );
    // Today about 58 MB; 100 MB would mean something large slipped in.
    expect(total).toBeLessThan(100e6);
    expect(asarSize).toBeGreaterThan(1e6);
  });
});
