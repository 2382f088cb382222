import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/main/core/library/database';
import { FakeClock } from '../src/main/base/fake-clock.test-kit';
import { Microphone } from '../src/main/core/recording/microphone';
import { Recorder, type RecordingInput } from '../src/main/core/recording/recorder';
import { RecordingMarks } from '../src/main/core/library/recording-marks';
import { Recordings } from '../src/main/core/library/recordings';
import { percentile, round, seededRandom, type Measurement } from './bench-kit';

/**
 * Recording an interview (issue #23), each number against writing the same PCM with a bare
 * `fs` write stream in the same run:
 * - capture-to-disk latency: a 50 ms chunk handed to the recorder (level, warnings, the
 *   crash-safe WAV) until the OS has it, p95 over 2,000 chunks, against a bare stream's write
 *   callback for the same chunks;
 * - CPU per recorded hour: a 2-hour recording at 48 kHz mono (144,000 chunks) fed as fast as
 *   it is written, with the header brought up to date and synced once per recorded second as
 *   the app does once per second; process CPU (user + system) per recorded hour, against the
 *   bare stream writing the same 2 hours;
 * - memory over those 2 hours: the heap after each recorded 10 minutes; its growth from the
 *   20th minute to the end (goal: flat, under 5 MB).
 * The two sides take turns at going first (latency: ours first; CPU: the stream first).
 */
const rate = 48_000;
const chunkBytes = (rate / 20) * 2;
const chunksPerSecond = 20;
const latencyChunks = 2000;
const hours = 2;
const soakChunks = hours * 3600 * chunksPerSecond;

/** Speech-like noise: the level and warning code does its real work on every sample. */
function chunks(count: number): Buffer[] {
  const random = seededRandom(23);
  return Array.from({ length: count }, () => {
    const pcm = Buffer.alloc(chunkBytes);
    for (let i = 0; i < chunkBytes; i += 2) pcm.writeInt16LE(Math.round((random() - 0.5) * 16_000), i);
    return pcm;
  });
}

/** An input the bench feeds by hand: each chunk handed over answers when it is written. */
function handFedInput(): RecordingInput & { feed: (pcm: Buffer) => Promise<void> | undefined } {
  let deliver: ((pcm: Buffer) => Promise<void> | undefined) | undefined;
  return {
    devices: () => [
      { id: 0, name: 'bench', inputs: 1, defaultSampleRate: rate, sampleRates: [rate], isDefault: true },
    ],
    open: () => ({
      start: (onAudio) => {
        deliver = onAudio;
      },
      stop: () => Promise.resolve(),
    }),
    feed: (pcm) => deliver?.(pcm),
  };
}

async function recorderIn(dir: string): Promise<{
  recorder: Recorder;
  feed: (pcm: Buffer) => Promise<void> | undefined;
  /** One recorded second: the header refresh and the status tick, as the wall clock would run them. */
  second: () => Promise<void>;
  close: () => Promise<void>;
}> {
  const db = openDatabase(':memory:');
  const input = handFedInput();
  const clock = new FakeClock();
  const recorder = new Recorder({
    input,
    recordings: new Recordings(db),
    marks: new RecordingMarks(db),
    folder: () => dir,
    microphone: new Microphone(),
    freeBytes: () => Promise.resolve(1e12),
    clock,
  });
  await recorder.start({ deviceId: null, channels: 1, sampleRate: rate });
  return {
    recorder,
    feed: input.feed,
    second: () => clock.advance(1000),
    close: async () => {
      await recorder.stop();
      db.close();
    },
  };
}

function streamWrite(stream: WriteStream, pcm: Buffer): Promise<void> {
  return new Promise((resolve, reject) => stream.write(pcm, (error) => (error ? reject(error) : resolve())));
}

async function closeStream(stream: WriteStream): Promise<void> {
  await new Promise<void>((resolve) => stream.end(() => resolve()));
}

/** A full collection, so a heap sample is what is kept, not what is waiting to be collected. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-recording-'));
  try {
    const sound = chunks(200);

    // Latency: ours first, then the bare stream, over the same chunks.
    const ours = await recorderIn(join(dir, 'latency'));
    const oursLatency: number[] = [];
    for (let i = 0; i < latencyChunks; i++) {
      const start = performance.now();
      await ours.feed(sound[i % sound.length]!);
      oursLatency.push(performance.now() - start);
      if (i % chunksPerSecond === chunksPerSecond - 1) await ours.second();
    }
    await ours.close();
    const bare = createWriteStream(join(dir, 'latency.raw'));
    const bareLatency: number[] = [];
    for (let i = 0; i < latencyChunks; i++) {
      const start = performance.now();
      await streamWrite(bare, sound[i % sound.length]!);
      bareLatency.push(performance.now() - start);
    }
    await closeStream(bare);

    // CPU and memory over 2 recorded hours: the bare stream first, then ours.
    const bareSoak = createWriteStream(join(dir, 'soak.raw'));
    const bareStart = cpuMs();
    for (let i = 0; i < soakChunks; i++) await streamWrite(bareSoak, sound[i % sound.length]!);
    await closeStream(bareSoak);
    const bareCpu = cpuMs() - bareStart;
    rmSync(join(dir, 'soak.raw'));

    collectGarbage();
    const soak = await recorderIn(join(dir, 'soak'));
    const heapAt: number[] = [];
    const oursStart = cpuMs();
    for (let i = 0; i < soakChunks; i++) {
      await soak.feed(sound[i % sound.length]!);
      if (i % chunksPerSecond === chunksPerSecond - 1) await soak.second();
      if (i % (600 * chunksPerSecond) === 600 * chunksPerSecond - 1) {
        collectGarbage();
        heapAt.push(process.memoryUsage().heapUsed);
      }
    }
    const oursCpu = cpuMs() - oursStart;
    const recordedMs = soak.recorder.status().elapsedMs;
    await soak.close();
    const megabytes = (bytes: number): number => round(bytes / 1e6);
    const growth = Math.max(...heapAt.slice(2)) - heapAt[1]!;
    const perHour = (ms: number): number => round(ms / 1000 / hours);

    return [
      {
        name: 'recording: p95 capture-to-disk latency of a 50 ms chunk at 48 kHz (level, warnings, crash-safe WAV)',
        statistic: 'p95',
        unit: 'ms',
        ours: round(percentile(oursLatency, 95)),
        baseline: round(percentile(bareLatency, 95)),
        baselineLabel: 'a bare fs write stream’s callback for the same chunks, p95',
        targets: [
          // A chunk arrives every 50 ms: one written in a tenth of that never queues up.
          { of: 'ours', statistic: 'p95', comparison: '<', threshold: 5, unit: 'ms' },
        ],
        notes: {
          chunks: latencyChunks,
          p50: round(percentile(oursLatency, 50)),
          baselineP50: round(percentile(bareLatency, 50)),
        },
      },
      {
        name: `recording: CPU seconds per recorded hour (user + system), a ${hours}-hour recording at 48 kHz mono`,
        statistic: 'per recorded hour',
        unit: 's',
        ours: perHour(oursCpu),
        baseline: perHour(bareCpu),
        baselineLabel: 'a bare fs write stream writing the same 2 hours of PCM',
        targets: [
          // Under 1% of one core while recording, the rest of the app and the OS keep the machine.
          { of: 'ours', statistic: 'per recorded hour', comparison: '<', threshold: 36, unit: 's' },
          { of: 'ratio', comparison: '<', threshold: 4 },
        ],
        notes: { recordedMinutes: Math.round(recordedMs / 60_000), chunks: soakChunks },
      },
      {
        name: `recording: heap growth over a ${hours}-hour recording, from its 20th minute to its end`,
        statistic: 'growth',
        unit: 'MB',
        ours: megabytes(growth),
        baseline: megabytes(heapAt[1]!),
        baselineLabel: 'the heap at the 20th minute',
        targets: [{ of: 'ours', statistic: 'growth', comparison: '<', threshold: 5, unit: 'MB' }],
        notes: { heapSamplesMB: heapAt.map((bytes) => megabytes(bytes)).join(' ') },
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
