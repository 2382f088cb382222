import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator/server';
import { createCore } from '../../src/main/core/app-core';
import { acceleratedClock } from '../../src/main/base/clock';
import { demoQuestions, demoVoiceInput, seedDemoLibrary } from './demo';
import { bytesForMs } from '../../src/main/core/voice/pcm';
import { DemoClient, demoEntry, startWebDemo, type AssistantTurn } from './demo.test-kit';
import { startTypeScriptProcess } from '../../src/main/cli/cli-process.test-kit';
import { freePort } from '../free-port.test-kit';

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
    const port = await freePort();
    const demo = await startWebDemo(['--port', String(port)]);
    const { url } = demo;
    const output = demo.output();
    try {
      expect(output).toContain('Sample library ready: 4 recordings');
      expect(output).toMatch(
        /Service emulator \(transcription, gateway, catalog, voice agent\) at http:\/\/127\.0\.0\.1:\d+/,
      );
      expect(url).toMatch(/token=[0-9a-f]{48}$/);
      expect(new URL(url).port).toBe(String(port)); // npm run demo:web -- --port N
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
      expect(await demo.stop()).toBe(0);
    }
  }, 90_000);

  it("the assistant answers each of the demo's questions in words, never reading out JSON", async () => {
    const demo = await startWebDemo();
    const client = await DemoClient.connect(demo.url);
    try {
      const turns: AssistantTurn[] = [];
      // The demo queues its questions in turn: each session hears the next one.
      for (const question of demoQuestions) {
        const answered = client.waitForAssistantAnswer();
        expect(await client.call('voice.start')).toMatchObject({ ok: true });
        const turn = await answered;
        expect(turn.heard).toBe(question);
        turns.push(turn);
        await client.call('voice.stop');
      }
      for (const turn of turns) {
        // What reached the agent: results it can use, no error, and what it said: no JSON.
        for (const result of turn.toolResults) expect(result, turn.heard).not.toMatch(/"error"|was not run/);
        expect(turn.answer, turn.heard).not.toMatch(/[{}[\]]|"\w+"\s*:/);
      }
      const [mayor, recent, council] = turns.map((turn) => turn.answer);
      // The headline question: the mayor's own words about the ferry, with where they are.
      expect(mayor).toMatch(/search library says: .*Mayor Elena Alvarez, 00:00:3\d, Frankly, the old ferry/);
      expect(mayor).not.toContain('Daniel Reyes');
      // The newest three by title, as the Library lists them, and how many more there are.
      const listed = (await client.call('transcripts.list')) as { value: { title: string }[] };
      expect(recent).toMatch(/list recent transcripts says: 4 transcripts: .*; and 1 more\.$/);
      for (const { title } of listed.value.slice(0, 3)) expect(recent).toContain(`${title}, completed`);
      expect(council).toMatch(/search library says: .*The council awarded Northwind Ferries/);
    } finally {
      client.close();
      expect(await demo.stop()).toBe(0);
    }
  }, 120_000);

  it('npm run demo:web -- --port refuses what is no port, in a sentence, before starting anything', async () => {
    const run = await startTypeScriptProcess(demoEntry, ['--port', '99999'], {}).finished;
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'demo: --port must be a port number from 0 to 65535 (0 picks a free one), not "99999".',
    );
    expect(run.stdout).toBe('');
  });

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
