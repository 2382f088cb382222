import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { environmentWith } from '../../src/main/cli/cli-process.test-kit';
import { parseNewsroomAddress } from '../../src/main/core/newsroom/newsroom-address';
import { newsroomIdentity } from '../../src/main/core/newsroom/newsroom-desks';

const folder = mkdtempSync(join(tmpdir(), 'verbatim-sample-newsroom-'));
// As root, PostgreSQL runs as the OS user `postgres`, who must reach its data folder inside this one.
chmodSync(folder, 0o755);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface SampleLine {
  name: string;
  desks: string;
  role: string;
  url: string;
  password: string;
}

/** Starts `npm run newsroom` as a real child process and waits for its last line of instructions. */
async function startNewsroom(): Promise<{ lines: SampleLine[]; stop: () => Promise<number | null> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(import.meta.dirname, 'start-newsroom.ts')],
    {
      env: environmentWith({ VERBATIM_NEWSROOM_FOLDER: folder }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.on('close', (code) => resolveExit(code)));
  await new Promise<void>((resolveReady, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('Press Ctrl+C to stop the newsroom.')) resolveReady();
    });
    void exited.then((code) => reject(new Error(`npm run newsroom ended (${code}): ${stdout}${stderr}`)));
  });
  const lines = [
    ...stdout.matchAll(
      /^(\S+) +(.+?) +(reporter|editor|administrator) +VERBATIM_NEWSROOM_URL=(\S+) VERBATIM_NEWSROOM_PASSWORD=(\S+)$/gm,
    ),
  ].map(([, name, desks, role, url, password]) => ({
    name: name!,
    desks: desks!,
    role: role!,
    url: url!,
    password: password!,
  }));
  return {
    lines,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolveAnswer(true)));
    socket.once('error', () => resolveAnswer(false));
  });
}

describe('npm run newsroom', () => {
  it('prints each sample user with a URL and password that log in as them, keeps them across restarts, and stops PostgreSQL on SIGTERM', async () => {
    const first = await startNewsroom();
    expect(first.lines.map(({ name, desks, role }) => [name, desks, role])).toEqual([
      ['ana', 'City', 'reporter'],
      ['ben', 'City', 'reporter'],
      ['chloe', 'Politics', 'reporter'],
      ['dora', 'City, Politics', 'editor'],
      ['postgres', '-', 'administrator'],
    ]);
    for (const line of first.lines.filter((each) => each.role !== 'administrator')) {
      const client = new pg.Client({ ...parseNewsroomAddress(line.url), password: line.password });
      await client.connect();
      try {
        const identity = await newsroomIdentity(client);
        expect(identity.user).toBe(line.name);
        expect(identity.desks.map(({ desk }) => desk).join(', ')).toBe(line.desks);
        expect(identity.desks.every(({ role }) => role === line.role)).toBe(true);
      } finally {
        await client.end();
      }
    }
    const port = parseNewsroomAddress(first.lines[0]!.url).port;
    expect(await first.stop()).toBe(0);
    expect(await portAnswers(port)).toBe(false);

    const second = await startNewsroom();
    expect(second.lines).toEqual(first.lines);
    expect(await second.stop()).toBe(0);
  });
});
