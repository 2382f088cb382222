#!/usr/bin/env node
// Brings every native module the app depends on to the ABI a command needs.
//
// Node and Electron load different ABIs, and one build/Release folder can hold only one of
// them. So each build is kept in node_modules/.verbatim-native/<target>/<module>@<version>/
// once made, and this script swaps the right one into place: `npm test` asks for the Node
// build, `npm start` and `npm run dist` for the Electron one. A rebuild happens only when no
// kept build of that module's version exists, so an upgraded module never gets an old build.
//
// The modules are discovered, not listed: every package in the production dependency tree
// that compiles an addon (has a binding.gyp) — better-sqlite3, naudiodon, and naudiodon's own
// segfault-handler, which a list of two once missed. On Linux each build's library search
// path is rewritten to $ORIGIN, so naudiodon finds the libportaudio.so.2 beside it wherever
// the folder is copied (a packaged app) instead of the build machine's absolute path.
//
//   node scripts/native-abi.mjs node|electron [--force]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { electronProgram } from './electron-program.mjs';
import { readRunpath, withRunpath } from './elf-runpath.mjs';

// VERBATIM_NATIVE_ROOT and VERBATIM_NATIVE_REBUILD (a script run instead of the real rebuild)
// exist for this script's own tests; the Electron rebuild itself is tested for real up to its
// download of Electron's headers, which a test serves (VERBATIM_ELECTRON_HEADERS_URL).
const root = process.env.VERBATIM_NATIVE_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const cacheRoot = join(root, 'node_modules', '.verbatim-native');
const stampName = '.verbatim-target';

const [target, ...flags] = process.argv.slice(2);
const force = flags.includes('--force');
/** `npm start` and the desktop demo also need Electron's own program, not only the builds. */
const needsApp = flags.includes('--app');
if (target !== 'node' && target !== 'electron') {
  console.error('usage: native-abi.mjs node|electron [--force] [--app]');
  process.exit(2);
}

/** Electron 45 and its build tools (@electron/rebuild, node-gyp's header download) need Node 22.12+. */
const electronNode = [22, 12];
function nodeIsOldForElectron() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major < electronNode[0] || (major === electronNode[0] && minor < electronNode[1]);
}

const electronDir = () => dirname(require.resolve('electron/package.json'));
if (target === 'electron' && needsApp && !electronProgram(electronDir())) {
  console.error(
    [
      'Verbatim cannot open as a desktop app yet: the Electron program was not downloaded by npm install',
      '(ELECTRON_SKIP_BINARY_DOWNLOAD was set, or there was no internet connection).',
      'With an internet connection, run: node node_modules/electron/install.js   then npm start again.',
      'Or use Verbatim in your browser now: npm run start:web',
    ].join('\n'),
  );
  process.exit(1);
}

function electronVersion() {
  return JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
}

function targetKey(kind) {
  const base = `${process.platform}-${process.arch}`;
  return kind === 'node'
    ? `node-${process.versions.modules}-${base}`
    : `electron-${electronVersion()}-${base}`;
}

/**
 * The packages of the production dependency tree that compile an addon, each resolved from the
 * package that depends on it (a nested copy is its own module). Dev tools with native parts
 * (bundlers) ship prebuilt Node-API binaries, which every ABI loads, and are left alone.
 */
function nativeModules() {
  const found = new Map();
  const seen = new Set();
  const visit = (packageDir) => {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    const names = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
    const requireHere = createRequire(join(packageDir, 'package.json'));
    for (const name of names) {
      let manifestPath;
      try {
        manifestPath = requireHere.resolve(`${name}/package.json`);
      } catch {
        continue; // an optional dependency for another system, or one that hides package.json
      }
      const dir = dirname(manifestPath);
      if (seen.has(dir)) continue;
      seen.add(dir);
      if (existsSync(join(dir, 'binding.gyp'))) {
        const { version } = JSON.parse(readFileSync(manifestPath, 'utf8'));
        found.set(dir, { name, version, dir, id: `${name.replace('/', '+')}@${version}` });
      }
      visit(dir);
    }
  };
  visit(root);
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

const releaseDir = (module) => join(module.dir, 'build', 'Release');

/** The files that make a build: the addon and any shared library beside it. */
function buildFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((file) => /\.(node|so(\.\d+)*|dylib|dll)$/.test(file));
}

const hasAddon = (dir) => buildFiles(dir).some((file) => file.endsWith('.node'));

/** The stamp names the target and the module's version, so a build outlives no upgrade. */
const stampOf = (module, key) => `${key} ${module.id}`;

function readStamp(module) {
  const stamp = join(releaseDir(module), stampName);
  if (!existsSync(stamp)) return undefined;
  const [key, id] = readFileSync(stamp, 'utf8').trim().split(' ');
  return id === module.id ? key : undefined;
}

function writeStamp(module, key) {
  writeFileSync(join(releaseDir(module), stampName), `${stampOf(module, key)}\n`);
}

/**
 * Linux: an addon that records an absolute library search path (naudiodon's build folder) gets
 * $ORIGIN instead, so it loads its libportaudio.so.2 from beside itself in any copy.
 */
function searchBesideItself(module) {
  if (process.platform !== 'linux') return;
  for (const file of buildFiles(releaseDir(module)).filter((name) => name.endsWith('.node'))) {
    const path = join(releaseDir(module), file);
    const bytes = readFileSync(path);
    const runpath = readRunpath(bytes);
    if (runpath === undefined || runpath === '$ORIGIN' || !runpath.startsWith('/')) continue;
    writeFileSync(path, withRunpath(bytes, '$ORIGIN'));
    console.log(`native-abi: ${module.name}'s ${file} now finds its libraries beside itself ($ORIGIN)`);
  }
}

function keep(module, key) {
  const from = releaseDir(module);
  const to = join(cacheRoot, key, module.id);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const file of buildFiles(from)) cpSync(join(from, file), join(to, file));
}

function restore(module, key) {
  const from = join(cacheRoot, key, module.id);
  const files = buildFiles(from);
  if (!files.some((file) => file.endsWith('.node'))) return false;
  const to = releaseDir(module);
  mkdirSync(to, { recursive: true });
  for (const file of files) cpSync(join(from, file), join(to, file));
  searchBesideItself(module); // a build kept before this rewrite existed
  writeStamp(module, key);
  return true;
}

/** A fresh `npm install` leaves an unstamped build: find out whether plain Node loads it. */
function loadsInNode(module) {
  const result = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(module.dir)})`], {
    cwd: root,
    stdio: 'pipe',
  });
  return result.status === 0;
}

function run(command, args) {
  console.log(`native-abi: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    console.error(`native-abi: "${command} ${args.join(' ')}" failed.`);
    process.exit(result.status ?? 1);
  }
}

/**
 * Builds the modules against Electron's headers through @electron/rebuild's public API (its
 * package exports only its main module: a deep path such as lib/cli.js is refused by Node).
 * VERBATIM_ELECTRON_HEADERS_URL points it at a mirror of Electron's headers.
 */
async function rebuildForElectron(names) {
  const version = electronVersion();
  if (nodeIsOldForElectron() && !process.env.VERBATIM_ALLOW_OLD_NODE) {
    console.error(
      `native-abi: building ${names.join(', ')} for Electron ${version} needs Node ${electronNode.join('.')} or newer ` +
        `(Electron's build tools require it); this is Node ${process.versions.node}. Install Node 22 LTS or newer, then run npm start again.`,
    );
    process.exit(1);
  }
  console.log(`native-abi: building ${names.join(', ')} for Electron ${version}`);
  let rebuildApi;
  try {
    rebuildApi = await import(pathToFileURL(require.resolve('@electron/rebuild')).href);
  } catch (error) {
    console.error(
      `native-abi: Electron's rebuild tool (@electron/rebuild) cannot be loaded: ${error.message}`,
    );
    console.error('native-abi: run "npm install" again, then "npm run rebuild:electron".');
    process.exit(1);
  }
  try {
    await rebuildApi.rebuild({
      buildPath: root,
      electronVersion: version,
      onlyModules: names,
      force: true,
      ...(process.env.VERBATIM_ELECTRON_HEADERS_URL
        ? { headerURL: process.env.VERBATIM_ELECTRON_HEADERS_URL }
        : {}),
    });
  } catch (error) {
    console.error(
      `native-abi: building ${names.join(', ')} for Electron ${version} failed: ${error.message}`,
    );
    console.error(
      'native-abi: it needs a C++ toolchain, Python and, once, Electron\'s headers from the internet; then run "npm run rebuild:electron".',
    );
    process.exit(1);
  }
}

async function rebuild(kind, names) {
  if (process.env.VERBATIM_NATIVE_REBUILD) {
    run(process.execPath, [process.env.VERBATIM_NATIVE_REBUILD, kind, ...names]);
  } else if (kind === 'node') {
    run('npm', ['rebuild', ...names]);
  } else {
    await rebuildForElectron(names);
  }
}

const key = targetKey(target);
const modules = nativeModules();
const toBuild = [];
for (const module of modules) {
  const current =
    readStamp(module) ??
    (hasAddon(releaseDir(module)) && loadsInNode(module) ? targetKey('node') : undefined);
  if (current && current !== readStamp(module)) writeStamp(module, current);
  if (!force && current === key) {
    searchBesideItself(module);
    if (!hasAddon(join(cacheRoot, key, module.id))) keep(module, key);
    continue;
  }
  if (current) keep(module, current);
  if (!force && restore(module, key)) {
    console.log(`native-abi: ${module.name} ${module.version} switched to the kept ${key} build`);
    continue;
  }
  toBuild.push(module);
}

if (toBuild.length > 0) {
  await rebuild(
    target,
    toBuild.map((module) => module.name),
  );
  for (const module of toBuild) {
    searchBesideItself(module);
    writeStamp(module, key);
    keep(module, key);
  }
  console.log(`native-abi: ${toBuild.map((module) => module.name).join(', ')} built for ${key}`);
}
if (target === 'node') {
  for (const module of modules) {
    if (!loadsInNode(module)) {
      console.error(`native-abi: ${module.name} still does not load in Node; run "npm run rebuild:node".`);
      process.exit(1);
    }
  }
}
