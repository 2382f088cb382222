import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../test/emulator/server';
import { createCore } from '../src/main/core/app-core';
import { acceleratedClock } from '../src/main/core/clock';
import type { BenchResult } from './bench-kit';
import { encodeWavPcm16 } from '../test/emulator/speech/wav-encode';

/**
 * Status requests per job for 200 concurrent jobs of 30-minute audio, through the real
 * scheduler against the emulator (both on a clock 25 times faster than real time). The
 * baseline is what a fixed 3-second poller — the official SDK's default — would have sent for
 * the same jobs, computed from when each one actually completed. Target: under 15 per job.
 */
const jobs = Number(process.env.BENCH_SCHEDULER_JOBS ?? 200);
const audioMinutes = 30;
// The emulator spends real CPU time decoding each recording, and on an accelerated clock that
// time is multiplied: keep the speed modest and the recordings light (2 kHz) so the service's
// processing time, not the emulator's CPU, is what the scheduler waits for.
const speed = 25;

/** 30 minutes of 2 kHz speech-like audio: tone bursts with pauses, so the service hears speech. */
function longRecording(path: string): void {
  const rate = 2000;
  const samples = new Int16Array(audioMinutes * 60 * rate);
  for (let i = 0; i < samples.length; i++) {
    if (i % (rate * 3) < rate * 2) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / rate));
  }
  writeFileSync(path, encodeWavPcm16(rate, [samples]));
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-scheduler-'));
  const recording = join(dir, 'council-meeting.wav');
  longRecording(recording);
  const emulator = await startEmulator({ port: 0, speed, dataDir: join(dir, 'emulator') });
  const core = createCore({
    dataDir: join(dir, 'data'),
    apiKey: () => emulator.options.key,
    transcriptionUrl: () => emulator.url,
    clock: acceleratedClock(speed),
  });
  let closeFiles = (): void => undefined;
  try {
    // The recording lives on a web server (as a newsroom's own files do), honouring Range.
    const size = statSync(recording).size;
    const files = createServer((req, res) => {
      const range = /bytes=(\d+)-(\d+)?/.exec(req.headers.range ?? '');
      if (range) {
        const start = Number(range[1]);
        const end = Math.min(size - 1, range[2] ? Number(range[2]) : size - 1);
        res.writeHead(206, {
          'Content-Range': `bytes ${start}-${end}/${size}`,
          'Content-Length': end - start + 1,
        });
        createReadStream(recording, { start, end }).pipe(res);
      } else {
        res.writeHead(200, { 'Content-Length': size });
        createReadStream(recording).pipe(res);
      }
    });
    await new Promise<void>((resolveListen) => files.listen(0, '127.0.0.1', resolveListen));
    closeFiles = () => files.close();
    const uploadUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/council-meeting.wav`;
    await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });
    const started = Date.now();
    for (let i = 0; i < jobs; i++) {
      await core.scheduler.submit({
        source: { kind: 'url', url: uploadUrl },
        title: `Meeting ${i}`,
        options: {},
        region: 'us',
      });
    }
    await core.scheduler.idle();
    const wallSeconds = (Date.now() - started) / 1000;
    const done = await core.library.list({ limit: jobs });
    const completed = done.filter((job) => job.status === 'completed').length;
    const log = (
      (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
        requests: { method: string; path: string }[];
      }
    ).requests;
    const statusRequests = log.filter(
      (r) => r.method === 'GET' && /^\/v2\/transcript\/[^/]+$/.test(r.path),
    ).length;
    const allRequests = log.length;

    // What a 3-second poller would have sent: one look every 3 s from creation to completion.
    let naive = 0;
    const listed = (await (
      await fetch(`${emulator.url}/v2/transcript?limit=200`, {
        headers: { Authorization: emulator.options.key },
      })
    ).json()) as {
      transcripts: { created: string; completed: string | null }[];
    };
    for (const transcript of listed.transcripts) {
      if (!transcript.completed) continue;
      const seconds = (Date.parse(`${transcript.completed}Z`) - Date.parse(`${transcript.created}Z`)) / 1000;
      naive += Math.ceil(seconds / 3);
    }
    const perJob = statusRequests / jobs;
    const naivePerJob = naive / listed.transcripts.length;
    return [
      {
        name: 'scheduler status requests per job',
        unit: 'requests',
        ours: perJob,
        baseline: naivePerJob,
        ratio: perJob / naivePerJob,
        target: 'under 15 status requests per job, none lost',
        met: perJob < 15 && completed === jobs,
        notes: {
          jobs,
          audioMinutes,
          completed,
          allRequestsPerJob: Math.round((allRequests / jobs) * 100) / 100,
          wallSeconds: Math.round(wallSeconds),
        },
      },
    ];
  } finally {
    closeFiles();
    await core.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
