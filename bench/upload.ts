import { spawn, spawnSync } from 'node:child_process';
import { emulatorKey, startEmulatorProcess } from './emulator-process';
import { mkdtempSync, openSync, closeSync, writeSync, ftruncateSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Measurement } from './bench-kit';
import { wavHeaderPcm16 } from '../test/emulator/speech/wav-encode';

/**
 * Upload of a 1 GB recording to the emulator through Verbatim's streamed upload, against
 * curl to the same endpoint, five rounds each, interleaved: the median round's throughput and
 * the peak memory of each process. Targets: at least 0.8x curl's throughput, memory growth
 * under 64 MB.
 */
const size = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);

/** Peak resident memory of a running process, sampled from /proc until it exits. */
function samplePeakRss(pid: number): { stop: () => number } {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peak = Math.max(peak, Number(match[1]) * 1024);
    } catch {
      // The process has exited.
    }
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** One upload through the app's path, in a child process: its time, its peak RSS and its growth. */
export async function uploadWithVerbatim(
  file: string,
  url: string,
): Promise<{ seconds: number; peak: number; growth: number }> {
  // The app's upload path, in a child process so its memory is its own.
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      resolve(import.meta.dirname, 'upload-child.ts'),
      file,
      url,
      emulatorKey,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolveExit) => child.on('exit', resolveExit));
  const measured = JSON.parse(output) as { seconds: number; rssBefore: number; peakRss: number };
  return { seconds: measured.seconds, peak: measured.peakRss, growth: measured.peakRss - measured.rssBefore };
}

async function uploadWithCurl(file: string, url: string): Promise<{ seconds: number; peak: number }> {
  // `--data-binary @file` reads the whole file into memory first and refuses at this size
  // ("out of memory"), so curl streams it the way it streams uploads: `-T file -X POST`.
  const start = process.hrtime.bigint();
  const curl = spawn(
    'curl',
    [
      '-sS',
      '-o',
      '/dev/null',
      '-H',
      `Authorization: ${emulatorKey}`,
      '-H',
      'Content-Type: application/octet-stream',
      '-X',
      'POST',
      '-T',
      file,
      `${url}/v2/upload`,
    ],
    { stdio: 'inherit' },
  );
  const sampler = samplePeakRss(curl.pid!);
  await new Promise((resolveExit) => curl.on('exit', resolveExit));
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, peak: sampler.stop() };
}

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-upload-'));
  const file = join(dir, 'long-interview.wav');
  const fd = openSync(file, 'w');
  writeSync(fd, wavHeaderPcm16(16_000, 1, size - 44));
  ftruncateSync(fd, size);
  closeSync(fd);
  const emulator = await startEmulatorProcess({ dataDir: join(dir, 'emulator') });
  try {
    // Interleaved rounds, medians reported: the disk and the two cores are shared, and one
    // run of either can be unlucky.
    const ours: { seconds: number; peak: number; growth: number }[] = [];
    const curls: { seconds: number; peak: number }[] = [];
    for (let round = 0; round < 5; round++) {
      ours.push(await uploadWithVerbatim(file, emulator.url));
      curls.push(await uploadWithCurl(file, emulator.url));
    }
    const median = <T>(items: T[], key: (item: T) => number): T =>
      [...items].sort((a, b) => key(a) - key(b))[Math.floor(items.length / 2)]!;
    const oursRun = median(ours, (r) => r.seconds);
    const curlRun = median(curls, (r) => r.seconds);
    const oursThroughput = size / 1e6 / oursRun.seconds;
    const curlThroughput = size / 1e6 / curlRun.seconds;
    // Memory is held to the worst round, not the median one.
    const maxGrowthMb = Math.max(...ours.map((r) => r.growth)) / 1e6;
    return [
      {
        name: `upload: median throughput of ${Math.round(size / 1e6).toLocaleString('en-US')} MB to the emulator (${ours.length} rounds)`,
        statistic: 'median',
        unit: 'MB/s',
        ours: oursThroughput,
        baseline: curlThroughput,
        baselineLabel: 'curl streaming the same file (`-T file -X POST`), median',
        targets: [
          { of: 'ratio', comparison: '>=', threshold: 0.8 },
          { of: 'note', note: 'oursMaxGrowthMb', comparison: '<', threshold: 64, unit: 'MB' },
        ],
        notes: {
          megabytes: Math.round(size / 1e6),
          oursSeconds: oursRun.seconds,
          curlSeconds: curlRun.seconds,
          oursMaxPeakRssMb: Math.round(Math.max(...ours.map((r) => r.peak)) / 1e6),
          oursMaxGrowthMb: Math.round(maxGrowthMb * 10) / 10,
          curlMaxPeakRssMb: Math.round(Math.max(...curls.map((r) => r.peak)) / 1e6),
        },
      },
    ];
  } finally {
    emulator.stop();
    rmSync(dir, { recursive: true, force: true });
    spawnSync('true');
  }
}
