import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The pieces every emulator module shares. A module exports `register(app: EmulatorApp)`
 * and adds its routes (and, for the voice agent, its WebSocket upgrade handler).
 */

export type Region = 'us' | 'eu';

export interface EmulatorOptions {
  key: string;
  managementKey: string;
  /** F > 1 makes processing F times faster. */
  speed: number;
  /** Where uploads and other state are written. */
  dataDir: string;
  /**
   * Seeds the transcript and upload ids. The real service never hands out an id twice, so by
   * default each start has a random seed (a library kept across emulator restarts never meets
   * an id it already holds); tests that compare runs pass the same seed.
   */
  idSeed: string;
  /**
   * How long transcription takes. Left out (the default), every transcript waits a second in
   * the queue and then takes exactly a quarter of its audio's length, all at once however many
   * there are: quick, predictable tests. A model makes it behave like a loaded service, for
   * benchmarks: see ProcessingModel.
   */
  processing?: ProcessingModel;
}

/**
 * Processing time with a spread and a queue. Each transcript's time is its audio's length
 * times a share drawn from a log-normal distribution (median `medianShare`, log-spread
 * `spread`), so most finish near the median and a few take far longer; and only `workers`
 * transcripts are processed at once, the rest staying `queued` in arrival order. The spec does
 * not show the real service's timings; its public guidance is that a file takes a fraction of
 * its duration, roughly 0.2 to 0.35, and longer when many jobs are queued.
 */
export interface ProcessingModel {
  /** The median processing time as a share of the audio's length, e.g. 0.27. */
  medianShare: number;
  /** σ of the share's logarithm: 0.35 puts the 95th percentile at 1.8 times the median. */
  spread: number;
  /** Transcripts processed at the same time; the others wait in the queue. */
  workers: number;
  /** Seeds the draws: the same seed gives the same times in the same order. */
  seed: string;
}

/** The emulator's clock: tests speed it up with --speed; everything timed goes through it. */
export interface Clock {
  now(): number;
  /** Waits `ms` of emulated time (ms / speed of real time). */
  sleep(ms: number): Promise<void>;
  /** setTimeout in emulated time; returns a cancel function. */
  setTimeout(fn: () => void, ms: number): () => void;
}

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Named groups of the route's pattern. */
  params: Record<string, string>;
  /** Which port the request arrived on: the US (main) or the EU one. */
  region: Region;
  /**
   * Keeps the request's parsed body in the request log, for a module whose tests must show
   * what a client sent (the gateway: a transcript_id, or the text itself). Does nothing for an
   * admin route, which is never logged.
   */
  logBody: (body: unknown) => void;
}

export type RouteHandler = (ctx: RequestContext) => Promise<void> | void;

export interface Route {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  /** Matched against the URL pathname; use named groups for params. */
  pattern: RegExp;
  handler: RouteHandler;
}

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, region: Region) => boolean; // true if handled

export interface EmulatorApp {
  options: EmulatorOptions;
  clock: Clock;
  /** Public base URL of a region's port, e.g. http://127.0.0.1:8787 (known once listening). */
  baseUrl(region: Region): string;
  route(route: Route): void;
  upgrade(handler: UpgradeHandler): void;
  /** Called by the admin reset: each module clears its state. */
  onReset(fn: () => void): void;
  /** Admin-set state shared across modules (e.g. next voice utterances). */
  admin: AdminState;
  /** Cross-module lookups, filled in by the module that owns the data. */
  shared: SharedLookups;
}

export interface SharedLookups {
  /** Text of a completed transcript visible in `region` (the gateway's {{ transcript }}). */
  transcriptText(id: string, region: Region): string | undefined;
}

export interface AdminState {
  /** Transcripts the voice agent will "hear" for the next user utterances, in order. */
  nextUtterances: string[];
}
