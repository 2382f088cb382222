import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { seededRandom } from '../catalog/seeded-random';
import type { EmulatorApp, ProcessingModel } from '../types';
import { UnreadableAudioError, decodeAudio, redactedAudio, soundOf, transcribeAudio } from '../speech/index';
import { AudioDownloadError, loadAudio, transcodingFailedMessage } from './audio-source';
import { withServiceDefaults } from './request-validation';
import type { TranscriptionState, TranscriptRecord } from './transcription-state';
import { deliverWebhook } from './webhook-delivery';

/** How long a new transcript waits in the queue (emulated ms) before processing starts. */
const QUEUED_MS = 1000;
/** By default processing takes a quarter of the audio's length, and at least a second (emulated). */
const PROCESSING_SHARE_OF_AUDIO = 0.25;
const MIN_PROCESSING_MS = 1000;

export const processingModelSchema = z.object({
  medianShare: z.number().positive(),
  spread: z.number().min(0),
  workers: z.number().int().positive(),
  seed: z.string(),
}) satisfies z.ZodType<ProcessingModel>;

/**
 * Processing times as shares of the audio's length, log-normal: median × e^(σz) with z a
 * standard normal draw (Box–Muller over the seeded generator). The tail is long: with σ = 0.35
 * one transcript in a hundred takes more than 2.2 times the median.
 */
export function processingShares(
  model: Pick<ProcessingModel, 'medianShare' | 'spread' | 'seed'>,
): () => number {
  const random = seededRandom(`processing:${model.seed}`);
  return () => {
    const u = 1 - random.next(); // in (0, 1], so the logarithm is finite
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
    return model.medianShare * Math.exp(model.spread * z);
  };
}

/** A fixed number of workers: work beyond them waits its turn, first come first served. */
export class WorkerPool {
  private busy = 0;
  private readonly waiting: ((release: () => void) => void)[] = [];

  constructor(private readonly workers: number) {}

  get active(): number {
    return this.busy;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `start` once a worker is free, handing it the call that frees the worker again. */
  take(start: (release: () => void) => void): void {
    if (this.busy < this.workers) {
      this.busy += 1;
      start(this.releaser());
    } else this.waiting.push(start);
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The worker goes straight to the next in line, so it is never counted free in between.
      if (next) next(this.releaser());
      else this.busy -= 1;
    };
  }
}

interface Load {
  pool: WorkerPool;
  nextShare: () => number;
}

/** One load per service state, keyed by its signal: a reset brings a new signal, so an empty queue. */
const loads = new WeakMap<AbortSignal, Load>();

function loadOf(signal: AbortSignal, model: ProcessingModel): Load {
  let load = loads.get(signal);
  if (!load) {
    load = { pool: new WorkerPool(model.workers), nextShare: processingShares(model) };
    loads.set(signal, load);
  }
  return load;
}

type Result =
  | { status: 'completed'; fields: Record<string, unknown>; redactedAudioPath: string | undefined }
  | { status: 'error'; error: string };

/**
 * The status machine: queued → processing → completed | error, on the emulator's clock.
 * The audio is fetched and run through the speech engine when processing starts; the
 * outcome becomes visible once the processing time has passed, then the webhook goes out.
 * With a processing model (EmulatorOptions.processing) a transcript also waits in the queue
 * for a free worker, and its processing time is drawn when the worker takes it.
 */
export function startProcessing(app: EmulatorApp, state: TranscriptionState, record: TranscriptRecord): void {
  const signal = state.signal;
  const model = app.options.processing;
  const load = model && loadOf(signal, model);
  const begin = (release: () => void): void => {
    if (signal.aborted) return;
    record.status = 'processing';
    const share = load ? load.nextShare() : PROCESSING_SHARE_OF_AUDIO;
    const takenAt = app.clock.now();
    void transcribe(app, state, record, signal).then(({ result, audioMs }) => {
      if (signal.aborted) return;
      const processingMs = Math.max(MIN_PROCESSING_MS, audioMs * share);
      // With a model the drawn time runs from when the worker took the job, the emulator's own
      // work on it included: on a fast clock that work is multiplied, and would stretch every
      // draw by however busy the machine happened to be.
      const spentMs = load ? app.clock.now() - takenAt : 0;
      state.after(Math.max(0, processingMs - spentMs), () => {
        finish(app, state, record, result);
        release();
      });
    });
  };
  state.after(QUEUED_MS, () => (load ? load.pool.take(begin) : begin(() => undefined)));
}

function finish(app: EmulatorApp, state: TranscriptionState, record: TranscriptRecord, result: Result): void {
  record.completedAt = app.clock.now();
  if (result.status === 'completed') {
    record.status = 'completed';
    record.fields = result.fields;
    record.redactedAudioPath = result.redactedAudioPath;
  } else {
    record.status = 'error';
    record.error = result.error;
  }
  void deliverWebhook(state, record);
}

async function transcribe(
  app: EmulatorApp,
  state: TranscriptionState,
  record: TranscriptRecord,
  signal: AbortSignal,
): Promise<{ result: Result; audioMs: number }> {
  let bytes: Uint8Array;
  try {
    bytes = soundOf(await loadAudio(app, state, record.region, record.params.audio_url, signal));
  } catch (error) {
    return { result: { status: 'error', error: failureMessage(error) }, audioMs: 0 };
  }
  try {
    const decoded = decodeAudio(bytes);
    const request = withServiceDefaults(record.params);
    const outcome = transcribeAudio(bytes, request);
    if (outcome.status === 'error') return { result: outcome, audioMs: decoded.durationMs };
    const fields = outcome.fields;
    let redactedAudioPath: string | undefined;
    if (record.params.redact_pii_audio && !signal.aborted) {
      redactedAudioPath = join(state.directory(record.region, 'redacted-audio'), `${record.id}.wav`);
      writeFileSync(redactedAudioPath, redactedAudio(bytes, fields, request));
    }
    return { result: { status: 'completed', fields, redactedAudioPath }, audioMs: decoded.durationMs };
  } catch (error) {
    if (error instanceof UnreadableAudioError) {
      return { result: { status: 'error', error: transcodingFailedMessage(bytes) }, audioMs: 0 };
    }
    return { result: { status: 'error', error: failureMessage(error) }, audioMs: 0 };
  }
}

function failureMessage(error: unknown): string {
  if (error instanceof AudioDownloadError) return error.message;
  // The engine failing unexpectedly still ends the transcript, as the real service's internal errors do.
  return `Internal error while transcribing: ${error instanceof Error ? error.message : String(error)}`;
}
