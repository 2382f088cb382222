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
import { percentile, round, type BenchResult } from './bench-kit';

/**
 * The voice path's three numbers, each against a baseline from the same run:
 * - capture-to-send latency: microphone pieces of 20 ms arrive in real time and go to the
 *   emulator in 50 ms chunks; the time from a piece's arrival to the send of the chunk that
 *   carries it, against the chunk period measured in the same run (goal: at most one chunk);
 * - barge-in flush: with seconds of reply audio queued for a device that plays in real time,
 *   the time from input.speech.started to silence at the sink (goal: under 50 ms), against
 *   how long a client without the flush would keep talking over the reporter;
 * - memory over a 30-minute session (36,000 chunks at 20 a second, sent as fast as possible,
 *   with a spoken turn and a reply every 10 seconds of audio): the heap at the end against
 *   the heap after the first three minutes (goal: flat).
 */

const CAPTURE_PIECE_MS = 20;
const CAPTURE_SECONDS = 3;
const BARGE_INS = 200;
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

async function captureToSend(): Promise<BenchResult> {
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
  const periods = sentAt.slice(1).map((at, index) => at - sentAt[index]!);
  const p95 = percentile(latencies, 95);
  const period = percentile(periods, 50);
  return {
    name: 'voice capture-to-send latency (p95)',
    unit: 'ms',
    ours: round(p95),
    baseline: round(period),
    ratio: round(p95 / period),
    target: 'at most one chunk (ratio <= 1)',
    met: p95 <= period,
    notes: { chunks: sentAt.length, piecesPerChunk, p50: round(percentile(latencies, 50)) },
  };
}

/** A sound device that holds 100 ms and plays in real time. */
class PacedDevice implements AudioSink {
  private buffered = 0;
  private waiters: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  silentAt: number | undefined;
  constructor() {
    this.timer = setInterval(() => {
      this.buffered = Math.max(0, this.buffered - bytesForMs(10));
      for (const resolve of this.waiters.splice(0)) resolve();
    }, 10);
  }
  write(pcm: Buffer): boolean {
    this.buffered += pcm.length;
    return this.buffered < bytesForMs(100);
  }
  drained(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  flush(): void {
    this.buffered = 0;
    this.silentAt = performance.now();
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

async function bargeInFlush(): Promise<BenchResult> {
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
  const chunk = JSON.stringify({
    type: 'reply.audio',
    data: Buffer.alloc(bytesForMs(50), 7).toString('base64'),
  });
  const flushMs: number[] = [];
  const queuedMs: number[] = [];
  for (let trial = 0; trial < BARGE_INS; trial++) {
    server.message('{"type":"reply.started","reply_id":"r"}');
    for (let i = 0; i < 60; i++) server.message(chunk); // three seconds of reply
    await new Promise((resolve) => setTimeout(resolve, 5));
    const pending = (session as unknown as { playback: { pendingBytes: number } }).playback.pendingBytes;
    const started = performance.now();
    server.message('{"type":"input.speech.started"}');
    flushMs.push((device.silentAt ?? Number.POSITIVE_INFINITY) - started);
    queuedMs.push((pending / bytesForMs(1000)) * 1000 + 100);
    server.message('{"type":"reply.done","status":"interrupted"}');
  }
  await session.stop();
  const p95 = percentile(flushMs, 95);
  const baseline = percentile(queuedMs, 50);
  return {
    name: 'voice barge-in flush to silence (p95)',
    unit: 'ms',
    ours: round(p95),
    baseline: round(baseline),
    ratio: round(p95 / baseline),
    target: 'under 50 ms',
    met: p95 < 50,
    notes: { trials: BARGE_INS, max: round(Math.max(...flushMs)) },
  };
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

async function soakMemory(): Promise<BenchResult> {
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
    name: 'voice 30-minute soak heap (end vs 3 minutes)',
    unit: 'MB',
    ours: mb(end),
    baseline: mb(early),
    ratio: round(end / early),
    target: 'flat (ratio <= 1.1)',
    met: end / early <= 1.1,
    notes: { chunks: sent, events, replyBytes: written },
  };
}

export async function run(): Promise<BenchResult[]> {
  return [await captureToSend(), await bargeInFlush(), await soakMemory()];
}
