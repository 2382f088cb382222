import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronProgram } from './electron-program.mjs';

/** An electron package folder as npm leaves it, with or without the downloaded program. */
function electronPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-electron-package-'));
  writeFileSync(join(dir, 'package.json'), '{"name":"electron","version":"45.0.0"}');
  return dir;
}

describe('electronProgram', () => {
  it('finds none when npm install skipped the download (no path.txt), and never downloads one', () => {
    const dir = electronPackage();
    expect(electronProgram(dir, {})).toBeUndefined();
  });

  it('finds none when path.txt names a program that is not on disk', () => {
    const dir = electronPackage();
    writeFileSync(join(dir, 'path.txt'), 'electron');
    expect(electronProgram(dir, {})).toBeUndefined();
  });

  it('finds the program path.txt names under dist/', () => {
    const dir = electronPackage();
    writeFileSync(join(dir, 'path.txt'), 'Electron.app/Contents/MacOS/Electron\n');
    mkdirSync(join(dir, 'dist', 'Electron.app', 'Contents', 'MacOS'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'Electron.app', 'Contents', 'MacOS', 'Electron'), '');
    expect(electronProgram(dir, {})).toBe(join(dir, 'dist', 'Electron.app', 'Contents', 'MacOS', 'Electron'));
  });

  it('follows ELECTRON_OVERRIDE_DIST_PATH, as the electron package does, only where a program is', () => {
    const dir = electronPackage();
    const elsewhere = mkdtempSync(join(tmpdir(), 'verbatim-electron-dist-'));
    expect(electronProgram(dir, { ELECTRON_OVERRIDE_DIST_PATH: elsewhere })).toBeUndefined();
    writeFileSync(join(elsewhere, 'electron'), '');
    expect(electronProgram(dir, { ELECTRON_OVERRIDE_DIST_PATH: elsewhere })).toBe(
      join(elsewhere, 'electron'),
    );
  });
});
