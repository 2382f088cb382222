#!/usr/bin/env node
// Brings the native modules (better-sqlite3, naudiodon) to the ABI a command needs.
//
// Node and Electron load different ABIs, and one build/Release folder can hold only one of
// them. So each build is kept in node_modules/.verbatim-native/<target>/ once made, and this
// script swaps the right one into place: `npm test` asks for the Node build, `npm start`
// and `npm run dist` for the Electron one. A rebuild happens only when no kept build exists.
//
//   node scripts/native-abi.mjs node|electron [--force]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { electronProgram } from './electron-program.mjs';

// VERBATIM_NATIVE_ROOT and VERBATIM_NATIVE_REBUILD (a script run instead of the real rebuild)
// exist for this script's own tests; the Electron rebuild itself is tested for real up to its
// download of Electron's headers, which a test serves (VERBATIM_ELECTRON_HEADERS_URL).
const root = process.env.VERBATIM_NATIVE_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const modules = [
  { name: 'better-sqlite3', binary: 'better_sqlite3.node' },
  { name: 'naudiodon', binary: 'naudiodon.node' },
];
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

function releaseDir(name) {
  return join(dirname(require.resolve(`${name}/package.json`)), 'build', 'Release');
}

/** The files that make a build: the addon and any shared library beside it. */
function buildFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((file) => /\.(node|so(\.\d+)*|dylib|dll)$/.test(file));
}

function readStamp(name) {
  const stamp = join(releaseDir(name), stampName);
  return existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : undefined;
}

function writeStamp(name, key) {
  writeFileSync(join(releaseDir(name), stampName), `${key}\n`);
}

function keep(name, key) {
  const from = releaseDir(name);
  const to = join(cacheRoot, key, name);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const file of buildFiles(from)) cpSync(join(from, file), join(to, file));
}

function restore(name, key) {
  const from = join(cacheRoot, key, name);
  const files = buildFiles(from);
  if (files.length === 0) return false;
  const to = releaseDir(name);
  mkdirSync(to, { recursive: true });
  for (const file of files) cpSync(join(from, file), join(to, file));
  writeStamp(name, key);
  return true;
}

/** A fresh `npm install` leaves an unstamped build: find out whether plain Node loads it. */
function loadsInNode(name) {
  const result = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(name)})`], {
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
const toBuild = [];
for (const { name, binary } of modules) {
  const current =
    readStamp(name) ??
    (existsSync(join(releaseDir(name), binary)) && loadsInNode(name) ? targetKey('node') : undefined);
  if (current && current !== readStamp(name)) writeStamp(name, current);
  if (!force && current === key) {
    if (!existsSync(join(cacheRoot, key, name, binary))) keep(name, key);
    continue;
  }
  if (current) keep(name, current);
  if (!force && restore(name, key)) {
    console.log(`native-abi: ${name} switched to the kept ${key} build`);
    continue;
  }
  toBuild.push(name);
}

if (toBuild.length > 0) {
  await rebuild(target, toBuild);
  for (const name of toBuild) {
    writeStamp(name, key);
    keep(name, key);
  }
  console.log(`native-abi: ${toBuild.join(', ')} built for ${key}`);
}
if (target === 'node') {
  for (const { name } of modules) {
    if (!loadsInNode(name)) {
      console.error(`native-abi: ${name} still does not load in Node; run "npm run rebuild:node".`);
      process.exit(1);
    }
  }
}
