import { describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The ABI switcher against a fake project: three "native" modules (each with a binding.gyp)
 * whose binary is a text file saying which runtime it was built for, and whose index.js refuses
 * to load in Node unless that file says "node" — as a real addon built for Electron would.
 * segfault-handler sits nested under naudiodon, reachable only through naudiodon's own
 * dependencies, as npm may place it: the script must find it without being told.
 */
const script = join(process.cwd(), 'scripts', 'native-abi.mjs');
const modules = {
  'better-sqlite3': { binary: 'better_sqlite3.node', dir: 'node_modules/better-sqlite3' },
  naudiodon: { binary: 'naudiodon.node', dir: 'node_modules/naudiodon' },
  'segfault-handler': {
    binary: 'segfault-handler.node',
    dir: 'node_modules/naudiodon/node_modules/segfault-handler',
  },
};
type ModuleName = keyof typeof modules;

function writeModule(root: string, name: ModuleName, version: string): void {
  const { binary, dir: relative } = modules[name];
  const dir = join(root, relative);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
  const dependencies = name === 'naudiodon' ? { 'segfault-handler': '1' } : {};
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version, main: 'index.js', dependencies }));
  writeFileSync(join(dir, 'binding.gyp'), "{'targets':[{'target_name':'x','sources':['x.c']}]}");
  writeFileSync(
    join(dir, 'index.js'),
    `if (require('fs').readFileSync(__dirname + '/build/Release/${binary}', 'utf8') !== 'node') throw new Error('was compiled against a different Node.js version');`,
  );
  writeFileSync(join(dir, 'build', 'Release', binary), 'node'); // what npm install leaves
}

function fakeProject(): { root: string; rebuilds: string } {
  const root = mkdtempSync(join(tmpdir(), 'verbatim-abi-'));
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({
      name: 'fake',
      dependencies: { 'better-sqlite3': '1', naudiodon: '1', 'plain-js': '1' },
    }),
  );
  mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true });
  writeFileSync(
    join(root, 'node_modules', 'electron', 'package.json'),
    '{"name":"electron","version":"45.0.0"}',
  );
  // A dependency without native code, and a dev tool's prebuilt binary: neither is rebuilt.
  mkdirSync(join(root, 'node_modules', 'plain-js'), { recursive: true });
  writeFileSync(
    join(root, 'node_modules', 'plain-js', 'package.json'),
    '{"name":"plain-js","version":"1.0.0"}',
  );
  for (const name of Object.keys(modules) as ModuleName[]) writeModule(root, name, '1.0.0');
  const rebuilds = join(root, 'rebuilds.log');
  const fakeRebuild = join(root, 'fake-rebuild.cjs');
  writeFileSync(
    fakeRebuild,
    `const fs = require('fs'); const [kind, ...names] = process.argv.slice(2);
     const modules = ${JSON.stringify(modules)};
     fs.appendFileSync(${JSON.stringify(rebuilds)}, kind + ':' + names.join(',') + '\\n');
     for (const name of names) fs.writeFileSync(${JSON.stringify(root)} + '/' + modules[name].dir + '/build/Release/' + modules[name].binary, kind);`,
  );
  return { root, rebuilds: fakeRebuild };
}

function run(root: string, rebuildScript: string, target: string): void {
  execFileSync(process.execPath, [script, target], {
    env: { ...process.env, VERBATIM_NATIVE_ROOT: root, VERBATIM_NATIVE_REBUILD: rebuildScript },
    stdio: 'pipe',
  });
}

function builds(root: string): string[] {
  return Object.values(modules).map(({ binary, dir }) =>
    readFileSync(join(root, dir, 'build', 'Release', binary), 'utf8'),
  );
}

function rebuildLog(root: string): string[] {
  const log = join(root, 'rebuilds.log');
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
}

describe('native-abi', () => {
  it('keeps the fresh Node build when Node is asked for, without rebuilding', () => {
    const { root, rebuilds } = fakeProject();
    run(root, rebuilds, 'node');
    expect(builds(root)).toEqual(['node', 'node', 'node']);
    expect(rebuildLog(root)).toEqual([]);
  });

  it('builds for Electron once, then swaps kept builds back and forth without rebuilding', () => {
    const { root, rebuilds } = fakeProject();
    run(root, rebuilds, 'electron'); // npm start on a fresh install
    expect(builds(root)).toEqual(['electron', 'electron', 'electron']);
    expect(rebuildLog(root)).toEqual(['electron:better-sqlite3,naudiodon,segfault-handler']);

    run(root, rebuilds, 'node'); // npm test right after
    expect(builds(root)).toEqual(['node', 'node', 'node']);
    run(root, rebuilds, 'electron');
    expect(builds(root)).toEqual(['electron', 'electron', 'electron']);
    run(root, rebuilds, 'node');
    expect(builds(root)).toEqual(['node', 'node', 'node']);
    expect(rebuildLog(root)).toHaveLength(1);
  });

  it('rebuilds for Node when an Electron build is in place and no Node build was kept', () => {
    const { root, rebuilds } = fakeProject();
    // Someone ran electron-rebuild by hand: unstamped Electron builds that Node cannot load.
    for (const { binary, dir } of Object.values(modules)) {
      writeFileSync(join(root, dir, 'build', 'Release', binary), 'electron');
    }
    run(root, rebuilds, 'node');
    expect(builds(root)).toEqual(['node', 'node', 'node']);
    expect(rebuildLog(root)).toEqual(['node:better-sqlite3,naudiodon,segfault-handler']);
  });

  it('rebuilds an upgraded module instead of bringing back the build kept for its old version', () => {
    const { root, rebuilds } = fakeProject();
    run(root, rebuilds, 'electron');
    run(root, rebuilds, 'node');
    // npm install brings naudiodon 1.1.0: a fresh folder with a fresh Node build, and its
    // segfault-handler, unchanged at 1.0.0, reinstalled inside it (its kept build still fits).
    writeModule(root, 'naudiodon', '1.1.0');
    writeModule(root, 'segfault-handler', '1.0.0');
    run(root, rebuilds, 'electron');
    expect(builds(root)).toEqual(['electron', 'electron', 'electron']);
    expect(rebuildLog(root)).toEqual([
      'electron:better-sqlite3,naudiodon,segfault-handler',
      'electron:naudiodon',
    ]);
    expect(
      readFileSync(join(root, modules.naudiodon.dir, 'build', 'Release', '.verbatim-target'), 'utf8'),
    ).toBe(
      'electron-45.0.0-linux-x64 naudiodon@1.1.0\n'.replace(
        'linux-x64',
        `${process.platform}-${process.arch}`,
      ),
    );
  });

  it('without the Electron program, npm start says how to get it or use the browser instead', () => {
    const { root, rebuilds } = fakeProject();
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, [script, 'electron', '--app'], {
        env: { ...process.env, VERBATIM_NATIVE_ROOT: root, VERBATIM_NATIVE_REBUILD: rebuilds },
        stdio: 'pipe',
      });
    } catch (error) {
      const { status, stderr } = error as { status: number; stderr: Buffer };
      failure = { status, stderr: stderr.toString() };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain('the Electron program was not downloaded by npm install');
    expect(failure?.stderr).toContain('npm run start:web');
    expect(rebuildLog(root)).toEqual([]);

    // Once the program is there (path.txt names it), the same command goes on to the builds.
    writeFileSync(join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
    mkdirSync(join(root, 'node_modules', 'electron', 'dist'));
    writeFileSync(join(root, 'node_modules', 'electron', 'dist', 'electron'), '');
    execFileSync(process.execPath, [script, 'electron', '--app'], {
      env: { ...process.env, VERBATIM_NATIVE_ROOT: root, VERBATIM_NATIVE_REBUILD: rebuilds },
      stdio: 'pipe',
    });
    expect(builds(root)).toEqual(['electron', 'electron', 'electron']);
  });

  it("reaches the real @electron/rebuild through its public API, for the project's Electron version", async () => {
    // The project's real @electron/rebuild, found the way the script finds it; only the
    // network is stood in for: a local server in place of Electron's headers site.
    const { root } = fakeProject();
    mkdirSync(join(root, 'node_modules', '@electron'), { recursive: true });
    symlinkSync(
      join(process.cwd(), 'node_modules', '@electron', 'rebuild'),
      join(root, 'node_modules', '@electron', 'rebuild'),
    );
    const asked: string[] = [];
    const headers = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(404).end();
    });
    await new Promise<void>((resolveListen) => headers.listen(0, '127.0.0.1', () => resolveListen()));
    const { port } = headers.address() as AddressInfo;
    try {
      // npm may point node-gyp at Node's own headers (nodedir); Electron's are what is wanted.
      const inherited = Object.fromEntries(
        Object.entries(process.env).filter(([key]) => !/^npm_config_nodedir$/i.test(key)),
      );
      const child = spawn(process.execPath, [script, 'electron'], {
        env: {
          ...inherited,
          HOME: root,
          VERBATIM_NATIVE_ROOT: root,
          VERBATIM_ELECTRON_HEADERS_URL: `http://127.0.0.1:${port}/headers`,
          // Electron's tools ask for Node 22.12; this repository's machines run Node 20, where
          // the script would stop before the call this test is about.
          VERBATIM_ALLOW_OLD_NODE: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolveExit) => child.on('close', resolveExit));
      expect(code, output).toBe(1);
      expect(output).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
      expect(output).toContain(
        'native-abi: building better-sqlite3, naudiodon, segfault-handler for Electron 45.0.0 failed',
      );
      expect(asked, output).toContain('/headers/v45.0.0/node-v45.0.0-headers.tar.gz');
    } finally {
      headers.close();
    }
  }, 60_000);

  it('on a Node older than 22.12, says which Node building for Electron needs', () => {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    const old = major < 22 || (major === 22 && minor < 12);
    const { root } = fakeProject();
    let stderr = '';
    let status = 0;
    try {
      execFileSync(process.execPath, [script, 'electron'], {
        env: { ...process.env, VERBATIM_NATIVE_ROOT: root },
        stdio: 'pipe',
      });
    } catch (error) {
      ({ status } = error as { status: number });
      stderr = (error as { stderr: Buffer }).stderr.toString();
    }
    expect(status).toBe(1);
    if (old)
      expect(stderr).toContain(
        `needs Node 22.12 or newer (Electron's build tools require it); this is Node ${process.versions.node}`,
      );
    else expect(stderr).toContain('cannot be loaded'); // no @electron/rebuild in the fake project
  });
});
