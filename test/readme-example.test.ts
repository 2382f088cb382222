import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
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

function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

describe("the README's emulator example", () => {
  it('runs as written: transcribe, search, ask, the catalog and the voice agent all answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-readme-'));
    const port = await freePort();
    // Only what must differ on a test machine: a free port and scratch files outside the repo.
    const script = readmeEmulatorExample()
      .replaceAll('8787', String(port))
      .replaceAll('./.verbatim-try', join(dir, 'data'))
      .replaceAll('question.raw', join(dir, 'question.raw'))
      .replaceAll('answer.raw', join(dir, 'answer.raw'));
    // In a process group of its own: a terminal's `kill %1` stops the emulator's whole job,
    // but a shell without job control kills only npm, so the test ends what is left itself.
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: root,
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolveExit) => child.on('exit', resolveExit));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // nothing left running
    }
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/ferry/i); // the search hit
    expect(stdout).toMatch(/^\d{3,}$/m); // jq length of the catalog's models
    expect(statSync(join(dir, 'answer.raw')).size).toBeGreaterThan(0); // the agent spoke
  }, 120_000);
});
