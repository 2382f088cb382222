import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../test/emulator/server';
import type { ProcessingModel } from '../test/emulator/types';
import { createCore } from '../src/main/core/app-core';
import { acceleratedClock, type Clock } from '../src/main/base/clock';
import { mean, type Measurement } from './bench-kit';
import { encodeWavPcm16 } from '../test/emulator/speech/wav-encode';

/**
 * Status requests per job for 200 concurrent jobs of 30-minute audio, through the real
 * scheduler against the emulator (both on a clock 25 times faster than real time), against a
 * fixed 3-second poller — the official SDK's default — run against the same emulator
 * configuration and counted the same way, from the emulator's request log.
 *
 * The emulator behaves like a loaded service here (EmulatorOptions.processing): each job's
 * processing time is a log-normal share of its audio's length, and only 50 jobs are processed
 * at once, so most of the 200 wait in the queue first. Target: under 15 status requests per
 * job, none lost.
 */
const jobs = Number(process.env.BENCH_SCHEDULER_JOBS ?? 200);
const audioMinutes = 30;
// The emulator spends real CPU time decoding each recording, and on an accelerated clock that
// time is multiplied: keep the speed modest and the recordings light (2 kHz) so the service's
// processing time, not the emulator's CPU, is what the clients wait for.
const speed = 25;
export const loadedService: ProcessingModel = {
  medianShare: 0.27,
  spread: 0.35,
  workers: 50,
  seed: 'bench-scheduler',
};
/** The official SDK polls every 3 seconds by default. */
const fixedIntervalMs = 3000;

/** 30 minutes of 2 kHz speech-like audio: tone bursts with pauses, so the service hears speech. */
function longRecording(path: string): void {
  const rate = 2000;
  const samples = new Int16Array(audioMinutes * 60 * rate);
  for (let i = 0; i < samples.length; i++) {
    if (i % (rate * 3) < rate * 2) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / rate));
  }
  writeFileSync(path, encodeWavPcm16(rate, [samples]));
}

/** The recording on a web server (as a newsroom's own files are), honouring Range. */
async function serveRecording(recording: string): Promise<{ url: string; close: () => void }> {
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
  return {
    url: `http://127.0.0.1:${(files.address() as AddressInfo).port}/council-meeting.wav`,
    close: () => files.close(),
  };
}

export interface ServiceCount {
  /** GET /v2/transcript/{id} requests in the emulator's log. */
  statusRequests: number;
  allRequests: number;
  /** Mean emulated minutes from creation to completion, over the completed transcripts. */
  meanMinutesToComplete: number;
  completed: number;
}

/** What the emulator saw: its request log and, from its list, when each transcript completed. */
export async function countAtService(emulator: RunningEmulator): Promise<ServiceCount> {
  const log = (
    (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
      requests: { method: string; path: string }[];
    }
  ).requests;
  const listed = (await (
    await fetch(`${emulator.url}/v2/transcript?limit=200`, {
      headers: { Authorization: emulator.options.key },
    })
  ).json()) as { transcripts: { status: string; created: string; completed: string | null }[] };
  const minutes = listed.transcripts
    .filter((t) => t.status === 'completed' && t.completed)
    .map((t) => (Date.parse(`${t.completed}Z`) - Date.parse(`${t.created}Z`)) / 60_000);
  return {
    statusRequests: log.filter((r) => r.method === 'GET' && /^\/v2\/transcript\/[^/]+$/.test(r.path)).length,
    allRequests: log.length,
    meanMinutesToComplete: mean(minutes),
    completed: minutes.length,
  };
}

/**
 * The baseline client: what the official SDK's `transcribe()` does for each recording —
 * create the transcript, then GET it, and while it is not finished GET it again `intervalMs`
 * later (on the emulated clock). All jobs at once, as a script transcribing a folder would.
 * The SDK waits its 3 s after each answer; on a real network an answer takes a fraction of a
 * second, but here its time is multiplied by the fast clock, so the interval is kept from one
 * request's start to the next. The mean interval it achieved is returned: a busy machine can
 * stretch it, which only lowers the baseline's count.
 */
export async function fixedPoller(options: {
  url: string;
  key: string;
  audioUrl: string;
  jobs: number;
  intervalMs: number;
  clock: Clock;
}): Promise<{ requests: number; completed: number; meanIntervalMs: number }> {
  const headers = { Authorization: options.key, 'Content-Type': 'application/json' };
  let requests = 0;
  let completed = 0;
  const intervals: number[] = [];
  await Promise.all(
    Array.from({ length: options.jobs }, async () => {
      const created = await fetch(`${options.url}/v2/transcript`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ audio_url: options.audioUrl }),
      });
      if (!created.ok)
        throw new Error(`the baseline poller could not create a transcript: ${created.status}`);
      const { id } = (await created.json()) as { id: string };
      let lastLook: number | undefined;
      for (;;) {
        const lookedAt = options.clock.now();
        if (lastLook !== undefined) intervals.push(lookedAt - lastLook);
        lastLook = lookedAt;
        requests += 1;
        const response = await fetch(`${options.url}/v2/transcript/${id}`, { headers });
        const { status } = (await response.json()) as { status: string };
        if (status === 'completed') completed += 1;
        if (status === 'completed' || status === 'error') return;
        await options.clock.sleep(Math.max(0, lookedAt + options.intervalMs - options.clock.now()));
      }
    }),
  );
  return { requests, completed, meanIntervalMs: mean(intervals) };
}

async function verbatimScheduler(
  emulator: RunningEmulator,
  audioUrl: string,
  dataDir: string,
): Promise<{ completed: number; wallSeconds: number }> {
  const core = createCore({
    dataDir,
    apiKey: () => emulator.options.key,
    transcriptionUrl: () => emulator.url,
    clock: acceleratedClock(speed),
  });
  try {
    const started = Date.now();
    for (let i = 0; i < jobs; i++) {
      await core.scheduler.submit({
        source: { kind: 'url', url: audioUrl },
        title: `Meeting ${i}`,
        options: {},
        region: 'us',
      });
    }
    await core.scheduler.idle();
    const done = await core.library.list({ limit: jobs });
    return {
      completed: done.filter((job) => job.status === 'completed').length,
      wallSeconds: (Date.now() - started) / 1000,
    };
  } finally {
    await core.close();
  }
}

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-scheduler-'));
  const recording = join(dir, 'council-meeting.wav');
  longRecording(recording);
  const files = await serveRecording(recording);
  const emulatorFor = (name: string): Promise<RunningEmulator> =>
    startEmulator({ port: 0, speed, dataDir: join(dir, name), processing: loadedService });
  try {
    // Verbatim's scheduler, then the fixed poller, each against a fresh emulator configured alike.
    const oursEmulator = await emulatorFor('emulator-ours');
    let ours: { completed: number; wallSeconds: number };
    let oursCount: ServiceCount;
    try {
      ours = await verbatimScheduler(oursEmulator, files.url, join(dir, 'data'));
      oursCount = await countAtService(oursEmulator);
    } finally {
      await oursEmulator.close();
    }
    const baselineEmulator = await emulatorFor('emulator-baseline');
    let poller: Awaited<ReturnType<typeof fixedPoller>>;
    let baselineCount: ServiceCount;
    try {
      const started = Date.now();
      poller = await fixedPoller({
        url: baselineEmulator.url,
        key: baselineEmulator.options.key,
        audioUrl: files.url,
        jobs,
        intervalMs: fixedIntervalMs,
        clock: acceleratedClock(speed),
      });
      baselineCount = await countAtService(baselineEmulator);
      if (baselineCount.statusRequests !== poller.requests) {
        throw new Error(
          `the emulator logged ${baselineCount.statusRequests} status requests but the poller sent ${poller.requests}`,
        );
      }
      console.log(`bench: scheduler baseline took ${Math.round((Date.now() - started) / 1000)} s`);
    } finally {
      await baselineEmulator.close();
    }
    const perJob = oursCount.statusRequests / jobs;
    const baselinePerJob = baselineCount.statusRequests / jobs;
    const round1 = (value: number): number => Math.round(value * 10) / 10;
    return [
      {
        name: `scheduler: mean status requests per job, ${jobs} concurrent jobs of ${audioMinutes}-minute audio on a loaded service`,
        statistic: 'mean',
        unit: 'requests',
        ours: perJob,
        baseline: baselinePerJob,
        baselineLabel: `a fixed ${fixedIntervalMs / 1000}-second poller (the official SDK's default) against the same service, mean`,
        targets: [
          { of: 'ours', statistic: 'mean', comparison: '<', threshold: 15, unit: 'requests' },
          { of: 'note', note: 'lost', comparison: '<=', threshold: 0 },
        ],
        notes: {
          jobs,
          audioMinutes,
          completed: ours.completed,
          lost: jobs - ours.completed,
          allRequestsPerJob: round1(oursCount.allRequests / jobs),
          meanMinutesToComplete: round1(oursCount.meanMinutesToComplete),
          baselineMeanMinutesToComplete: round1(baselineCount.meanMinutesToComplete),
          baselineCompleted: poller.completed,
          baselineMeanIntervalSeconds: round1(poller.meanIntervalMs / 1000),
          wallSeconds: Math.round(ours.wallSeconds),
          service: `processing log-normal (median ${loadedService.medianShare}x audio, σ ${loadedService.spread}), ${loadedService.workers} workers, clock ${speed}x`,
        },
      },
    ];
  } finally {
    files.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
