import type { Browser } from '@playwright/test';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebApp, type WebApp } from '../../src/web-host/start';
import type { CompletedTranscript } from '../../src/main/core/library/library';
import { wavHeaderPcm16 } from '../../test/emulator/speech/wav-encode';
import { launchBenchBrowser, requireBenchBrowser } from './bench-browser';

/**
 * What the reader's benchmarks in Chromium (reader.ts, corrections-paint.ts) stand on: the web
 * host over a fresh data folder, a 3.5-hour silent recording for the transcripts they store,
 * and Chromium launched to play it without a user's gesture.
 */
export interface ReaderBench {
  host: WebApp;
  browser: Browser;
  /** The recording's path, for the jobs' source and audio. */
  recording: string;
}

/** A silent recording at 8 kHz: a sparse file, so it costs no disk. */
export function silentRecording(path: string, hours: number): void {
  const dataBytes = hours * 3600 * 8000 * 2;
  const fd = openSync(path, 'w');
  writeSync(fd, wavHeaderPcm16(8000, 1, dataBytes));
  ftruncateSync(fd, 44 + dataBytes);
  closeSync(fd);
}

/**
 * Runs `measure` on a reader bench, then closes the browser and the host and removes the
 * folder. `name` says which benchmark needs Chromium; `folderPrefix` starts the folder's name.
 */
export async function withReaderBench<T>(
  name: string,
  folderPrefix: string,
  measure: (bench: ReaderBench) => Promise<T>,
): Promise<T> {
  requireBenchBrowser(name);
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  const recording = join(dir, 'three-hour-council-meeting.wav');
  silentRecording(recording, 3.5);
  const host = await startWebApp({ dataDir: join(dir, 'data') });
  const browser = await launchBenchBrowser(name, [
    '--autoplay-policy=no-user-gesture-required',
    '--mute-audio',
  ]);
  try {
    return await measure({ host, browser, recording });
  } finally {
    await browser.close();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Stores `completed` in the bench's library as a finished transcript of its recording. */
export async function storeWithRecording(
  bench: ReaderBench,
  id: string,
  title: string,
  completed: CompletedTranscript,
): Promise<void> {
  const { library } = bench.host.services.core;
  await library.createJob({
    id,
    title,
    sourceKind: 'file',
    source: bench.recording,
    audioPath: bench.recording,
    region: 'us',
    options: {},
    status: 'fetching',
  });
  await library.saveCompleted(id, completed);
}
