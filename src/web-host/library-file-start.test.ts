import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from '../main/core/library/migrations/index';

const root = resolve(import.meta.dirname, '../..');

function run(script: string, args: string[], dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, VERBATIM_DATA_DIR: dataDir, VERBATIM_WEB_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The web host would run until stopped if it started: stop it so the test says so.
  const timer = setTimeout(() => child.kill('SIGTERM'), 15_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolveRun) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    }),
  );
}

function folderWithLibrary(bytes: Buffer | string): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-bad-library-'));
  writeFileSync(join(dataDir, 'library.sqlite'), bytes);
  return dataDir;
}

describe('starting on a library this Verbatim cannot open', () => {
  it('the command line says what is wrong with which file, in a sentence, and changes nothing', async () => {
    const dataDir = folderWithLibrary('');
    const result = await run('src/main/cli/main.ts', ['jobs'], dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The library file ${join(dataDir, 'library.sqlite')} is empty (0 bytes)`);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(readFileSync(join(dataDir, 'library.sqlite')).length).toBe(0);
  });

  it('the web host explains a library from a newer Verbatim instead of crashing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-newer-library-'));
    const future = new Database(join(dataDir, 'library.sqlite'));
    future.pragma(`user_version = ${migrations.at(-1)!.version + 3}`);
    future.close();
    const result = await run('src/web-host/start.ts', [], dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('This library was saved by a newer version of Verbatim');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).not.toContain('running in your browser');
  });

  it('the web host refuses a file that is not a library', async () => {
    const dataDir = folderWithLibrary('not a database');
    const result = await run('src/web-host/start.ts', [], dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a Verbatim library');
    expect(readFileSync(join(dataDir, 'library.sqlite'), 'utf8')).toBe('not a database');
  });
});
