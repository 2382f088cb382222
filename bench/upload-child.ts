import { HttpClient } from '../src/main/core/http/http-client';
import { TranscriptionClient } from '../src/main/core/transcription/transcription-client';
import { inspectRecording, uploadSource } from '../src/main/core/transcription/recording-file';
import { ownPeakRss, resetOwnPeakRss } from './own-peak-rss';

/** Uploads one file the way the app does, in its own process so its memory can be measured. */
const [path, baseUrl, key] = process.argv.slice(2) as [string, string, string];
const client = new TranscriptionClient(
  new HttpClient({
    service: 'transcription service',
    baseUrl,
    apiKey: () => key,
    authStyle: 'raw',
    fetch: (input, init) => fetch(input, init),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
    random: Math.random,
  }),
);
const info = await inspectRecording(path);
global.gc?.();
resetOwnPeakRss();
const before = process.memoryUsage().rss;
const start = process.hrtime.bigint();
const chunkBytes = process.env.BENCH_CHUNK ? Number(process.env.BENCH_CHUNK) : undefined;
const url = await client.upload(uploadSource(info, { chunkBytes }));
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const peak = ownPeakRss();
const cpu = process.cpuUsage();
console.log(
  JSON.stringify({
    url,
    seconds,
    bytes: info.size,
    rssBefore: before,
    peakRss: peak,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  }),
);
