import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './free-port.test-kit';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** The README's "Try it without a key" block, exactly as a reader would paste it. */
function readmeEmulatorExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('Try it without a key against the emulator');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start));
  if (start < 0 || !block?.[1]) throw new Error('README.md has no emulator example');
  return block[1];
}

/** Is anything accepting connections on the port? */
function listening(port: number): Promise<boolean> {
  return new Promise((resolveListening) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolveListening(true);
    });
    socket.once('error', () => resolveListening(false));
  });
}

describe("the README's emulator example", () => {
  it('runs as written with `bash file.sh`, then leaves no emulator listening and no file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-readme-'));
    // Where the script's `mktemp -d` goes, so the test can see it cleaned up after itself.
    const scratch = join(dir, 'tmp');
    mkdirSync(scratch);
    const port = await freePort();
    // The block as it stands; only the port must differ on a test machine, where 8787 may be taken.
    const script = join(dir, 'readme-example.sh');
    writeFileSync(script, readmeEmulatorExample().replaceAll('8787', String(port)));
    const rootBefore = readdirSync(root).sort();
    // Stricter than a reader's `bash file.sh`: any failing step fails the test. In a process
    // group of its own, so the test can end whatever the script might leave running.
    const child = spawn('bash', ['-e', '-o', 'pipefail', script], {
      cwd: root,
      env: { ...process.env, CI: 'true', TMPDIR: scratch },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolveExit) => child.on('exit', resolveExit));
    try {
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stdout).toMatch(/ferry/i); // the search hit
      expect(stdout).toMatch(/^\d{3,}$/m); // jq length of the catalog's models
      expect(stdout).toMatch(/^agent: \S/m); // the voice agent answered
      expect(await listening(port), 'the emulator is still listening').toBe(false);
      expect(readdirSync(root).sort()).toEqual(rootBefore);
      // mktemp's folder is gone (tsx keeps its cache beside it, as in any temporary folder).
      expect(readdirSync(scratch).filter((name) => name.startsWith('tmp.'))).toEqual([]);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // nothing left running
      }
    }
  }, 180_000);
});
