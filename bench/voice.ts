import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startEmulator } from '../test/emulator/server';
import { CHUNK_MS, bytesForMs } from '../src/main/core/voice/pcm';
import type { AudioSink } from '../src/main/core/voice/playback-queue';
import { voiceAddress } from '../src/main/core/voice/voice-address';
import { VoiceSession, type AudioSource } from '../src/main/core/voice/voice-session';
import {
  wsSocketFactory,
  type VoiceSocketFactory,
  type VoiceSocketHandlers,
} from '../src/main/core/voice/voice-socket';
import { mean, percentile, round, type Measurement } from './bench-kit';

/**
 * The voice path's three numbers, each against a baseline from the same run:
 * - capture-to-send latency: microphone pieces of 20 ms arrive in real time and go to the
 *   emulator in 50 ms chunks; the time from a piece's arrival to the send of the chunk that
 *   carries it, against the mean gap between sends, the chunk period as measured (goal: at
 *   most one chunk period);
 * - barge-in flush: with seconds of reply audio queued for a device that plays in real time,
 *   the time from input.speech.started to silence at the sink (goal: under 50 ms, and no
 *   trial without a flush), against the same session never told of the barge-in, which
 *   talks on over the reporter until its queue runs dry;
 * - memory over a 30-minute session (36,000 chunks at 20 a second, sent as fast as possible,
 *   with a spoken turn and a reply every 10 seconds of audio): the heap at the end against
 *   the heap after the first three minutes (goal: flat).
 */

const CAPTURE_PIECE_MS = 20;
const CAPTURE_SECONDS = 3;
const BARGE_INS = 200;
/** Each baseline trial plays its whole reply out in real time, so a few are enough. */
const BASELINE_BARGE_INS = 5;
const REPLY_MS = 3000;
const SOAK_CHUNKS = (30 * 60 * 1000) / CHUNK_MS;
const TURN_EVERY_CHUNKS = (10 * 1000) / CHUNK_MS;

const config = { systemPrompt: '', greeting: '', vadThreshold: 0.5, voice: 'v', volume: 100, tools: [] };

/** A microphone that hands over `pieceMs` of silence every `pieceMs`, in real time. */
class PacedMicrophone implements AudioSource {
  readonly deliveredAt: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly pieceMs: number,
    private readonly pieces: number,
  ) {}
  start(onAudio: (pcm: Buffer) => void): void {
    const started = performance.now();
    const tick = (): void => {
      const index = this.deliveredAt.length;
      if (index >= this.pieces) return;
      this.deliveredAt.push(performance.now());
      onAudio(Buffer.alloc(bytesForMs(this.pieceMs)));
      this.timer = setTimeout(tick, started + (index + 1) * this.pieceMs - performance.now());
    };
    tick();
  }
  stop(): Promise<void> {
    clearTimeout(this.timer);
    return Promise.resolve();
  }
}

async function captureToSend(): Promise<Measurement> {
  const emulator = await startEmulator({ port: 0 });
  const sentAt: number[] = [];
  const factory: VoiceSocketFactory = (request, handlers) => {
    const socket = wsSocketFactory(request, handlers);
    return {
      ...socket,
      send: (text) => {
        if (text.startsWith('{"type":"input.audio"')) sentAt.push(performance.now());
        socket.send(text);
      },
    };
  };
  const pieces = (CAPTURE_SECONDS * 1000) / CAPTURE_PIECE_MS;
  const microphone = new PacedMicrophone(CAPTURE_PIECE_MS, pieces);
  const session = new VoiceSession({
    socketUrl: voiceAddress(emulator.url).socketUrl,
    auth: { kind: 'key', apiKey: emulator.options.key },
    config,
    socketFactory: factory,
    source: microphone,
  });
  await session.start();
  await new Promise((resolve) => setTimeout(resolve, CAPTURE_SECONDS * 1000 + 200));
  await session.stop();
  await emulator.close();
  // A piece goes out with the chunk its last byte completes (piece i ends at (i + 1) × 20 ms).
  const piecesPerChunk = CHUNK_MS / CAPTURE_PIECE_MS;
  const latencies: number[] = [];
  microphone.deliveredAt.forEach((delivered, index) => {
    const sent = sentAt[Math.ceil(((index + 1) * CAPTURE_PIECE_MS) / CHUNK_MS) - 1];
    if (sent !== undefined) latencies.push(sent - delivered);
  });
  // Pieces of 20 ms fill chunks of 50 ms, so sends come 40 and 60 ms apart in turn: the
  // chunk period is their mean, not their median (which lands on one side or the other).
  const gaps = sentAt.slice(1).map((at, index) => at - sentAt[index]!);
  const p95 = percentile(latencies, 95);
  const period = mean(gaps);
  return {
    name: 'voice: p95 capture-to-send latency per 20 ms microphone piece',
    statistic: 'p95',
    unit: 'ms',
    ours: round(p95),
    baseline: round(period),
    baselineLabel: `the chunk period: the mean gap between consecutive sends of ${CHUNK_MS} ms chunks`,
    targets: [{ of: 'ratio', comparison: '<=', threshold: 1 }],
    notes: {
      chunks: sentAt.length,
      piecesPerChunk,
      p50: round(percentile(latencies, 50)),
      shortestGapMs: round(Math.min(...gaps)),
      longestGapMs: round(Math.max(...gaps)),
    },
  };
}

/**
 * A sound device that holds 100 ms and plays in real time, 10 ms a tick. It knows when it
 * fell silent: its buffer ran dry, or a flush dropped it, with nothing written since.
 */
class PacedDevice implements AudioSink {
  private buffered = 0;
  private waiters: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  silentSince: number | undefined = performance.now();
  flushes = 0;
  constructor() {
    this.timer = setInterval(() => {
      if (this.buffered > 0) {
        this.buffered = Math.max(0, this.buffered - bytesForMs(10));
        if (this.buffered === 0) this.silentSince = performance.now();
      }
      for (const resolve of this.waiters.splice(0)) resolve();
    }, 10);
  }
  write(pcm: Buffer): boolean {
    this.buffered += pcm.length;
    this.silentSince = undefined;
    return this.buffered < bytesForMs(100);
  }
  drained(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  flush(): void {
    this.flushes += 1;
    this.buffered = 0;
    this.silentSince ??= performance.now();
  }
  close(): Promise<void> {
    clearInterval(this.timer);
    return Promise.resolve();
  }
}

/** A scripted agent on a fake socket: the bench plays the server's side. */
function scriptedAgent(): { factory: VoiceSocketFactory; server: () => VoiceSocketHandlers } {
  let handlers: VoiceSocketHandlers | undefined;
  const factory: VoiceSocketFactory = (_request, socketHandlers) => {
    handlers = socketHandlers;
    setTimeout(() => socketHandlers.open(), 0);
    return {
      send: (text) => {
        if (text.startsWith('{"type":"session.update"')) {
          setTimeout(() => socketHandlers.message('{"type":"session.ready","session_id":"bench"}'), 0);
        }
      },
      close: () => setTimeout(() => socketHandlers.close(1000, ''), 0),
      terminate: () => undefined,
    };
  };
  return { factory, server: () => handlers! };
}

export interface BargeInTrials {
  /** From input.speech.started to silence at the device, per trial (Infinity: never silent). */
  latencies: number[];
  /** Trials in which the session did not flush the device. */
  missedFlushes: number;
}

/**
 * Queues `replyMs` of reply audio, then the reporter starts speaking: the time until the
 * device is silent, trial after trial, each timed from its own start. With `tellSession`
 * false the session never hears input.speech.started (a client without barge-in handling)
 * and plays its queue out. Silence counts once the device has stayed quiet for `quietMs`:
 * a queue that still holds audio writes again within a tick of the device draining.
 */
export async function bargeInTrials(options: {
  trials: number;
  replyMs: number;
  tellSession: boolean;
  quietMs?: number;
}): Promise<BargeInTrials> {
  const quietMs = options.quietMs ?? 40;
  const agent = scriptedAgent();
  const device = new PacedDevice();
  const session = new VoiceSession({
    socketUrl: 'ws://bench.invalid/v1/ws',
    auth: { kind: 'key', apiKey: 'bench' },
    config,
    socketFactory: agent.factory,
    sink: device,
  });
  await session.start();
  const server = agent.server();
  const chunkMs = 50;
  const chunk = JSON.stringify({
    type: 'reply.audio',
    data: Buffer.alloc(bytesForMs(chunkMs), 7).toString('base64'),
  });
  const latencies: number[] = [];
  let missedFlushes = 0;
  const deadlineMs = options.replyMs * 2 + 1000;
  try {
    for (let trial = 0; trial < options.trials; trial++) {
      server.message('{"type":"reply.started","reply_id":"r"}');
      for (let i = 0; i < options.replyMs / chunkMs; i++) server.message(chunk);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const flushesBefore = device.flushes;
      const started = performance.now();
      if (options.tellSession) server.message('{"type":"input.speech.started"}');
      server.message('{"type":"reply.done","status":"interrupted"}');
      for (;;) {
        const now = performance.now();
        const silentSince = device.silentSince;
        if (silentSince !== undefined && silentSince >= started && now - silentSince >= quietMs) {
          latencies.push(silentSince - started);
          break;
        }
        if (now - started > deadlineMs) {
          latencies.push(Number.POSITIVE_INFINITY);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      if (device.flushes === flushesBefore) missedFlushes += 1;
    }
  } finally {
    await session.stop();
  }
  return { latencies, missedFlushes };
}

export function bargeInMeasurement(ours: BargeInTrials, withoutHandling: BargeInTrials): Measurement {
  const p95 = percentile(ours.latencies, 95);
  const baseline = percentile(withoutHandling.latencies, 95);
  return {
    name: 'voice: p95 barge-in time from input.speech.started to silence at the sink',
    statistic: 'p95',
    unit: 'ms',
    ours: round(p95),
    baseline: round(baseline),
    baselineLabel: `the same session never told of the barge-in, playing its ${REPLY_MS / 1000} s reply out, p95 of ${withoutHandling.latencies.length} trials`,
    targets: [
      { of: 'ours', statistic: 'p95', comparison: '<', threshold: 50, unit: 'ms' },
      { of: 'note', note: 'missedFlushes', comparison: '<=', threshold: 0 },
    ],
    notes: {
      trials: ours.latencies.length,
      missedFlushes: ours.missedFlushes,
      max: round(Math.max(...ours.latencies)),
    },
  };
}

async function bargeInFlush(): Promise<Measurement> {
  const ours = await bargeInTrials({ trials: BARGE_INS, replyMs: REPLY_MS, tellSession: true });
  const withoutHandling = await bargeInTrials({
    trials: BASELINE_BARGE_INS,
    replyMs: REPLY_MS,
    tellSession: false,
  });
  return bargeInMeasurement(ours, withoutHandling);
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

async function soakMemory(): Promise<Measurement> {
  const agent = scriptedAgent();
  let written = 0;
  const sink: AudioSink = {
    write: (pcm) => ((written += pcm.length), true),
    drained: () => Promise.resolve(),
    flush: () => undefined,
    close: () => Promise.resolve(),
  };
  let events = 0;
  const session = new VoiceSession({
    socketUrl: 'ws://bench.invalid/v1/ws',
    auth: { kind: 'key', apiKey: 'bench' },
    config,
    socketFactory: agent.factory,
    sink,
    headphones: true,
    runTool: () => Promise.resolve({ quotes: [] }),
    onEvent: () => void (events += 1),
  });
  await session.start();
  const server = agent.server();
  const microphoneChunk = Buffer.alloc(bytesForMs(CHUNK_MS), 1);
  const replyChunk = JSON.stringify({
    type: 'reply.audio',
    data: Buffer.alloc(bytesForMs(50)).toString('base64'),
  });
  const heapAt: number[] = [];
  for (let chunk = 1; chunk <= SOAK_CHUNKS; chunk++) {
    session.capture(microphoneChunk);
    if (chunk % TURN_EVERY_CHUNKS === 0) {
      server.message('{"type":"input.speech.started"}');
      server.message('{"type":"transcript.user.delta","text":"what did"}');
      server.message('{"type":"input.speech.stopped"}');
      server.message('{"type":"transcript.user","text":"what did the mayor say","item_id":"i"}');
      server.message('{"type":"reply.started","reply_id":"r"}');
      for (let i = 0; i < 20; i++) server.message(replyChunk);
      server.message('{"type":"tool.call","call_id":"c","name":"search_library","arguments":{"query":"x"}}');
      server.message(
        '{"type":"transcript.agent","text":"She said yes.","reply_id":"r","item_id":"j","interrupted":false}',
      );
      server.message('{"type":"reply.done","status":"completed"}');
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (chunk === SOAK_CHUNKS / 10 || chunk === SOAK_CHUNKS) {
      collectGarbage();
      heapAt.push(process.memoryUsage().heapUsed);
    }
  }
  const sent = session.stats.sentChunks;
  await session.stop();
  const [early = 0, end = 0] = heapAt;
  const mb = (bytes: number): number => round(bytes / 1024 / 1024);
  return {
    name: 'voice: heap after a forced GC at the end of one session of 30 minutes',
    statistic: 'one session',
    unit: 'MB',
    ours: mb(end),
    baseline: mb(early),
    baselineLabel: 'the same heap after its first 3 minutes',
    // Flat: no more than a tenth above where it stood after three minutes.
    targets: [{ of: 'ratio', comparison: '<=', threshold: 1.1 }],
    notes: { chunks: sent, events, replyBytes: written },
  };
}

export async function run(): Promise<Measurement[]> {
  return [await captureToSend(), await bargeInFlush(), await soakMemory()];
}
