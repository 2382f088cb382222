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
