import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { launchProblem, packagedExecutable } from './packaged-launch.mjs';

const names = { name: 'verbatim', productName: 'Verbatim' };

describe('the packaged app launch', () => {
  it('finds the program where electron-builder --dir puts it on each system', () => {
    expect(packagedExecutable('/o', 'linux', 'x64', names)).toBe(join('/o', 'linux-unpacked', 'verbatim'));
    expect(packagedExecutable('/o', 'linux', 'arm64', names)).toBe(
      join('/o', 'linux-arm64-unpacked', 'verbatim'),
    );
    expect(packagedExecutable('/o', 'darwin', 'arm64', names)).toBe(
      join('/o', 'mac-arm64', 'Verbatim.app', 'Contents', 'MacOS', 'Verbatim'),
    );
    expect(packagedExecutable('/o', 'darwin', 'x64', names)).toBe(
      join('/o', 'mac', 'Verbatim.app', 'Contents', 'MacOS', 'Verbatim'),
    );
    expect(packagedExecutable('/o', 'win32', 'x64', names)).toBe(join('/o', 'win-unpacked', 'Verbatim.exe'));
  });

  it('counts a launch as working only with its own page, the bridge and an IPC answer', () => {
    const page = 'file:///opt/Verbatim/resources/app.asar/out/renderer/index.html';
    expect(launchProblem({ url: page, bridge: true, library: 0 })).toBeUndefined();
    expect(launchProblem(undefined)).toMatch(/wrote no launch report/);
    expect(launchProblem({ url: 'http://localhost:5173/', bridge: true, library: 0 })).toMatch(
      /loaded http:\/\/localhost:5173\/ instead of its own renderer/,
    );
    expect(launchProblem({ url: page, bridge: false, library: 'no bridge' })).toMatch(/preload did not run/);
    expect(launchProblem({ url: page, bridge: true, library: 'The library is locked.' })).toMatch(
      /did not answer over IPC: The library is locked\./,
    );
  });
});
