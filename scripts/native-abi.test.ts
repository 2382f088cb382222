import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The ABI switcher against a fake project: two "native" modules whose binary is a text file
 * saying which runtime it was built for, and whose index.js refuses to load in Node unless
 * that file says "node" — as a real addon built for Electron would.
 */
const script = join(process.cwd(), 'scripts', 'native-abi.mjs');
const modules = { 'better-sqlite3': 'better_sqlite3.node', naudiodon: 'naudiodon.node' };

function fakeProject(): { root: string; rebuilds: string } {
  const root = mkdtempSync(join(tmpdir(), 'verbatim-abi-'));
  writeFileSync(join(root, 'package.json'), '{"name":"fake"}');
  mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true });
  writeFileSync(
    join(root, 'node_modules', 'electron', 'package.json'),
    '{"name":"electron","version":"45.0.0"}',
  );
  for (const [name, binary] of Object.entries(modules)) {
    const dir = join(root, 'node_modules', name);
    mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
    writeFileSync(
      join(dir, 'index.js'),
      `if (require('fs').readFileSync(__dirname + '/build/Release/${binary}', 'utf8') !== 'node') throw new Error('was compiled against a different Node.js version');`,
    );
    writeFileSync(join(dir, 'build', 'Release', binary), 'node'); // what npm install leaves
  }
  const rebuilds = join(root, 'rebuilds.log');
  const fakeRebuild = join(root, 'fake-rebuild.cjs');
  writeFileSync(
    fakeRebuild,
    `const fs = require('fs'); const [kind, ...names] = process.argv.slice(2);
     const binaries = ${JSON.stringify(modules)};
     fs.appendFileSync(${JSON.stringify(rebuilds)}, kind + ':' + names.join(',') + '\\n');
     for (const name of names) fs.writeFileSync(${JSON.stringify(root)} + '/node_modules/' + name + '/build/Release/' + binaries[name], kind);`,
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
  return Object.entries(modules).map(([name, binary]) =>
    readFileSync(join(root, 'node_modules', name, 'build', 'Release', binary), 'utf8'),
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
    expect(builds(root)).toEqual(['node', 'node']);
    expect(rebuildLog(root)).toEqual([]);
  });

  it('builds for Electron once, then swaps kept builds back and forth without rebuilding', () => {
    const { root, rebuilds } = fakeProject();
    run(root, rebuilds, 'electron'); // npm start on a fresh install
    expect(builds(root)).toEqual(['electron', 'electron']);
    expect(rebuildLog(root)).toEqual(['electron:better-sqlite3,naudiodon']);

    run(root, rebuilds, 'node'); // npm test right after
    expect(builds(root)).toEqual(['node', 'node']);
    run(root, rebuilds, 'electron');
    expect(builds(root)).toEqual(['electron', 'electron']);
    run(root, rebuilds, 'node');
    expect(builds(root)).toEqual(['node', 'node']);
    expect(rebuildLog(root)).toHaveLength(1);
  });

  it('rebuilds for Node when an Electron build is in place and no Node build was kept', () => {
    const { root, rebuilds } = fakeProject();
    // Someone ran electron-rebuild by hand: unstamped Electron builds that Node cannot load.
    for (const [name, binary] of Object.entries(modules)) {
      writeFileSync(join(root, 'node_modules', name, 'build', 'Release', binary), 'electron');
    }
    run(root, rebuilds, 'node');
    expect(builds(root)).toEqual(['node', 'node']);
    expect(rebuildLog(root)).toEqual(['node:better-sqlite3,naudiodon']);
  });
});
