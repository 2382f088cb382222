import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator/server';
import { createCore } from '../../src/main/core/app-core';
import { acceleratedClock } from '../../src/main/core/clock';
import WebSocket from 'ws';
import { demoQuestions, demoVoiceInput, seedDemoLibrary } from './demo';
import { rawDataToText, socketPath } from '../../src/web-host/web-host';
import { bytesForMs } from '../../src/main/core/voice/pcm';

/** A client of the web host's socket, as the page's bridge is: calls and events. */
class DemoClient {
  private nextId = 1;
  private constructor(private readonly ws: WebSocket) {}

  static connect(openUrl: string): Promise<DemoClient> {
    const { origin, searchParams } = new URL(openUrl);
    const ws = new WebSocket(
      `${origin.replace('http', 'ws')}${socketPath}?token=${searchParams.get('token')}`,
    );
    return new Promise((resolveOpen, reject) => {
      ws.once('open', () => resolveOpen(new DemoClient(ws)));
      ws.once('error', reject);
    });
  }

  call(method: string, input?: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolveCall) => {
      const onMessage = (data: WebSocket.RawData): void => {
        const message = JSON.parse(rawDataToText(data)) as { id?: number; result?: unknown };
        if (message.id !== id) return;
        this.ws.off('message', onMessage);
        resolveCall(message.result);
      };
      this.ws.on('message', onMessage);
      this.ws.send(JSON.stringify({ id, method, input }));
    });
  }

  waitForEvent(event: string, matches: (payload: unknown) => boolean): Promise<unknown> {
    return new Promise((resolveEvent) => {
      const onMessage = (data: WebSocket.RawData): void => {
        const message = JSON.parse(rawDataToText(data)) as { event?: string; payload?: unknown };
        if (message.event !== event || !matches(message.payload)) return;
        this.ws.off('message', onMessage);
        resolveEvent(message.payload);
      };
      this.ws.on('message', onMessage);
    });
  }

  close(): void {
    this.ws.close();
  }
}

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

  it('npm run demo:web keeps every service on the machine: catalog, assistant and dates work from the emulator', async () => {
    const startedAt = Date.now();
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
    try {
      expect(output).toContain('Sample library ready: 4 recordings');
      expect(output).toMatch(
        /Service emulator \(transcription, gateway, catalog, voice agent\) at http:\/\/127\.0\.0\.1:\d+/,
      );
      expect(url).toMatch(/token=[0-9a-f]{48}$/);
      const client = await DemoClient.connect(url);
      try {
        // The catalog comes from the emulator (the real host would fail here: no network).
        const overview = (await client.call('catalog.refresh')) as {
          ok: boolean;
          value: { host: string; refreshError: string | null; models: { id: string[] }; fetchedAt: number };
        };
        expect(overview, JSON.stringify(overview).slice(0, 300)).toMatchObject({ ok: true });
        expect(overview.value.refreshError).toBeNull();
        expect(overview.value.host).toContain('127.0.0.1');
        expect(overview.value.models.id.length).toBeGreaterThan(100);
        expect(Math.abs(overview.value.fetchedAt - Date.now())).toBeLessThan(60_000);
        // Dates a journalist reads are on the wall clock, though polling ran 50 times faster.
        const jobs = (await client.call('transcripts.list')) as {
          value: { createdAt: number; completedAt: number | null }[];
        };
        for (const job of jobs.value) {
          expect(job.createdAt).toBeGreaterThanOrEqual(startedAt - 1000);
          expect(job.createdAt).toBeLessThanOrEqual(Date.now() + 1000);
          expect(job.completedAt ?? 0).toBeLessThanOrEqual(Date.now() + 1000);
        }
        // The assistant hears the spoken sample and the emulated agent hears the first question.
        const heard = client.waitForEvent('voice.transcript', (payload) =>
          JSON.stringify(payload).includes(demoQuestions[0]!),
        );
        expect(await client.call('voice.start')).toMatchObject({ ok: true });
        await heard;
        await client.call('voice.stop');
      } finally {
        client.close();
      }
    } finally {
      const exited = new Promise<number | null>((resolveExit) =>
        child.on('exit', (code) => resolveExit(code)),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 90_000);

  it("the demo's spoken sample is two seconds of speech and a pause, as 24 kHz PCM16", () => {
    const pcm = demoVoiceInput();
    // Linear interpolation keeps back the last input sample until more arrives: one sample short.
    expect(bytesForMs(3500) - pcm.length).toBeLessThanOrEqual(2);
    let speechPeak = 0;
    for (let offset = 0; offset < bytesForMs(2000); offset += 2)
      speechPeak = Math.max(speechPeak, Math.abs(pcm.readInt16LE(offset)));
    expect(speechPeak).toBeGreaterThan(1000);
    expect(pcm.subarray(bytesForMs(2000) + 2).every((byte) => byte === 0)).toBe(true);
  });
});
