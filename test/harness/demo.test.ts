import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator/server';
import { createCore } from '../../src/main/core/app-core';
import { acceleratedClock } from '../../src/main/core/clock';
import { seedDemoLibrary } from './demo';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
});
afterAll(() => emulator.close());

describe('the demo', () => {
  it('fills an empty library with transcribed samples, named speakers and tags, once', async () => {
    const core = createCore({
      dataDir: mkdtempSync(join(tmpdir(), 'verbatim-demo-')),
      apiKey: () => emulator.options.key,
      transcriptionUrl: () => emulator.url,
      clock: acceleratedClock(200),
    });
    expect(await seedDemoLibrary(core)).toBe(4);
    const jobs = await core.library.list();
    expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    const interview = jobs.find((job) => job.title.includes('ferry contract'));
    expect(interview?.speakers).toEqual([
      { label: 'A', name: 'Daniel Reyes' },
      { label: 'B', name: 'Mayor Elena Alvarez' },
    ]);
    expect(interview?.tags).toEqual(['council', 'ferry']);
    expect((await core.library.search('ferry', { speaker: 'Mayor Elena Alvarez' })).total).toBeGreaterThan(0);
    expect(await seedDemoLibrary(core)).toBe(0);
    await core.close();
  });

  it('npm run demo:web prints the address to open and stops cleanly', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'demo.ts')], {
      env: { ...process.env, VERBATIM_DATA_DIR: mkdtempSync(join(tmpdir(), 'verbatim-demo-web-')) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const url = await new Promise<string>((resolveUrl) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /demo is running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(output);
        if (match?.[1]) resolveUrl(match[1]);
      });
    });
    expect(output).toContain('Sample library ready: 4 recordings');
    expect(url).toMatch(/token=[0-9a-f]{48}$/);
    const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
