import { VerbatimError, withoutFullStop } from '../../../shared/errors';
import { Chunker, measureLevel, type Level } from './pcm';
import { PlaybackQueue, type AudioSink } from './playback-queue';
import { parseServerMessage, sessionUpdate, type ServerMessage, type SessionConfig } from './voice-protocol';
import type { VoiceSocket, VoiceSocketFactory } from './voice-socket';
import { systemClock, type Clock } from '../../base/clock';
import { DisposableStore, toDisposable, type IDisposable } from '../../base/lifecycle';
import { toolResultText } from '../library-tools/library-tools';

/**
 * One conversation with the voice agent: the socket, the session's configuration, the
 * microphone's way out and the agent's voice's way in, tool calls, barge-in, and reconnection
 * with session.resume. Every piece of I/O (socket, timers, audio) is injected.
 */

export type VoiceState =
  | 'connecting'
  | 'configuring'
  | 'ready'
  | 'listening'
  | 'user-speaking'
  | 'thinking'
  | 'agent-speaking'
  | 'reconnecting'
  | 'closed';

export type VoiceMode = 'hands-free' | 'push-to-talk';

export type VoiceEvent =
  | { type: 'state'; state: VoiceState }
  | { type: 'session'; sessionId: string; resumed: boolean }
  | { type: 'user-transcript'; text: string; final: boolean; itemId?: string | undefined }
  | { type: 'reply-started'; replyId?: string | undefined }
  | { type: 'agent-transcript'; text: string; replyId?: string | undefined; interrupted: boolean }
  | { type: 'reply-done'; interrupted: boolean }
  | { type: 'tool-call'; callId: string; name: string; arguments: unknown }
  | { type: 'tool-result'; callId: string; name: string; result: string; sent: boolean }
  | { type: 'error'; code: string; message: string }
  | { type: 'level'; rms: number; peak: number };

/** Microphone audio: PCM16 mono 24 kHz, in whatever pieces the device delivers. */
export interface AudioSource {
  start(onAudio: (pcm: Buffer) => void, onError: (error: Error) => void): void;
  stop(): Promise<void>;
}

export type VoiceAuth = { kind: 'key'; apiKey: string } | { kind: 'token'; token: () => Promise<string> };

/** Runs a tool the agent called; the result goes back as JSON text, an `{ error }` as its sentence. */
export type ToolRunner = (name: string, args: unknown) => Promise<unknown>;

export interface VoiceSessionOptions {
  socketUrl: string;
  auth: VoiceAuth;
  config: SessionConfig;
  socketFactory: VoiceSocketFactory;
  clock?: Clock;
  source?: AudioSource;
  sink?: AudioSink;
  runTool?: ToolRunner;
  onEvent?: (event: VoiceEvent) => void;
  mode?: VoiceMode;
  /** With headphones the agent cannot hear itself, so the microphone stays open while it speaks. */
  headphones?: boolean;
  /** AssemblyAI keeps a dropped session resumable for 30 s. */
  resumeGraceMs?: number;
  /** After this long without a connection the session gives up. */
  reconnectGiveUpMs?: number;
  reconnectInitialDelayMs?: number;
  reconnectMaxDelayMs?: number;
  /** How long session.ready (or session.updated) may take. */
  answerTimeoutMs?: number;
  /** How long stop() waits for the close handshake before dropping the socket. */
  closeTimeoutMs?: number;
}

export interface VoiceStats {
  sentChunks: number;
  sentBytes: number;
  /** Captured while no session could take it (connecting, reconnecting): never sent later. */
  droppedBytes: number;
}

interface Connection {
  socket: VoiceSocket;
  open: boolean;
  /** Told once when the socket has closed (stop() waits on it). */
  onClosed?: () => void;
}

interface PendingTool {
  callId: string;
  name: string;
  result: Promise<string>;
}

interface Waiter {
  resolve(): void;
  reject(error: VerbatimError): void;
}

/** Errors that mean the session cannot start (AssemblyAI answers an expired token with "unauthorized"). */
const FATAL_WHILE_CONFIGURING = new Set(['invalid_session_config', 'unauthorized', 'session_not_found']);

const STREAMING_STATES = new Set<VoiceState>([
  'ready',
  'listening',
  'user-speaking',
  'thinking',
  'agent-speaking',
]);

export class VoiceSession implements IDisposable {
  private stateNow: VoiceState = 'closed';
  private connection: Connection | undefined;
  private sessionIdNow: string | undefined;
  private readonly clock: Clock;
  private readonly playback: PlaybackQueue | undefined;
  private readonly chunker = new Chunker();
  private readyWaiter: Waiter | undefined;
  private readonly updateWaiters: Waiter[] = [];
  private pendingTools: PendingTool[] = [];
  private replyInProgress = false;
  private stopping = false;
  private droppedAt: number | undefined;
  private reconnectAttempt = 0;
  private cancelReconnect: (() => void) | undefined;
  private resuming = false;
  private muted = false;
  private talking = false;
  private mode: VoiceMode;
  private headphones: boolean;
  private config: SessionConfig;
  private readonly statsNow: VoiceStats = { sentChunks: 0, sentBytes: 0, droppedBytes: 0 };
  /** Every timer not yet fired (answer timeouts, the next reconnect, a close's deadline). */
  private readonly pendingTimers = new DisposableStore();

  constructor(private readonly options: VoiceSessionOptions) {
    this.clock = options.clock ?? systemClock;
    this.mode = options.mode ?? 'hands-free';
    this.headphones = options.headphones ?? false;
    this.config = options.config;
    this.playback = options.sink
      ? new PlaybackQueue(options.sink, (playing) => this.playbackChanged(playing))
      : undefined;
  }

  get state(): VoiceState {
    return this.stateNow;
  }

  get sessionId(): string | undefined {
    return this.sessionIdNow;
  }

  get stats(): VoiceStats {
    return { ...this.statsNow };
  }

  /**
   * Connects, configures the session and starts the microphone. Fails fast (a clear
   * VerbatimError) when the server cannot be reached, refuses the key or the configuration.
   */
  async start(): Promise<string> {
    if (this.stateNow !== 'closed') throw new VerbatimError('conflict', 'The assistant is already running.');
    if (this.pendingTimers.isDisposed) throw new VerbatimError('cancelled', 'The assistant was closed.');
    this.stopping = false;
    this.sessionIdNow = undefined;
    this.setState('connecting');
    try {
      this.connection = await this.connect();
      this.setState('configuring');
      await this.configure(this.connection);
    } catch (error) {
      this.connection?.socket.terminate();
      this.connection = undefined;
      this.setState('closed');
      throw error;
    }
    this.options.source?.start(
      (pcm) => this.capture(pcm),
      (error) => this.emit({ type: 'error', code: 'audio_device', message: describeDeviceError(error) }),
    );
    return this.sessionIdNow!;
  }

  /** Ends the session; bounded by closeTimeoutMs even when the server never answers. */
  async stop(): Promise<void> {
    if (this.stateNow === 'closed' && !this.connection) return;
    this.stopping = true;
    this.cancelReconnect?.();
    this.cancelReconnect = undefined;
    this.failWaiters(new VerbatimError('cancelled', 'The assistant was stopped.'));
    const connection = this.connection;
    this.connection = undefined;
    await Promise.all([
      this.options.source?.stop().catch(() => undefined),
      this.playback?.close().catch(() => undefined),
      connection ? this.closeSocket(connection) : undefined,
    ]);
    this.pendingTools = [];
    this.setState('closed');
  }

  /**
   * Ends the session at once, without the close handshake (the app quitting, the assistant's
   * service closed): every timer is cancelled, waiters fail, the socket is dropped and the
   * devices are released. Idempotent; `stop()` is the polite way.
   */
  dispose(): void {
    if (this.pendingTimers.isDisposed) return;
    this.stopping = true;
    this.cancelReconnect = undefined;
    this.failWaiters(new VerbatimError('cancelled', 'The assistant was closed.'));
    // A close still waiting for its handshake is cut short (its socket dropped) as the timers go.
    this.pendingTimers.dispose();
    const connection = this.connection;
    this.connection = undefined;
    connection?.socket.terminate();
    void this.options.source?.stop().catch(() => undefined);
    void this.playback?.close().catch(() => undefined);
    this.pendingTools = [];
    this.setState('closed');
  }

  /** How many timers the session has waiting (none once disposed). */
  get pendingTimerCount(): number {
    return this.pendingTimers.size;
  }

  /**
   * A timer owned by the session: the returned function cancels it. Disposing the session
   * cancels it too, then runs `onAbandon` (what must still happen, such as resolving a wait).
   */
  private later(fn: () => void, ms: number, onAbandon?: () => void): () => void {
    const timer = this.clock.setTimeout(() => {
      this.pendingTimers.deleteAndLeak(entry);
      fn();
    }, ms);
    const entry = toDisposable(() => {
      timer.dispose();
      onAbandon?.();
    });
    // Already disposed: the timer is cancelled (and abandoned) at once.
    this.pendingTimers.add(entry);
    return () => {
      this.pendingTimers.deleteAndLeak(entry);
      timer.dispose();
    };
  }

  /** Microphone audio (also what a source calls): cut into ~50 ms chunks and sent when a session can take it. */
  capture(pcm: Buffer): void {
    const level: Level = measureLevel(pcm);
    this.emit({ type: 'level', rms: level.rms, peak: level.peak });
    for (const chunk of this.chunker.push(pcm)) this.sendChunk(chunk);
  }

  /** Sends what is left of the captured audio (the end of a file). */
  flushCapture(): void {
    const rest = this.chunker.flush();
    if (rest) this.sendChunk(rest);
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
  }

  setMode(mode: VoiceMode): void {
    this.mode = mode;
    this.talking = false;
  }

  setHeadphones(headphones: boolean): void {
    this.headphones = headphones;
  }

  /** Push-to-talk: the key is down (true) or released (false). */
  setTalking(talking: boolean): void {
    this.talking = talking;
  }

  /** Is the microphone's audio reaching the agent right now? */
  get microphoneOpen(): boolean {
    if (this.muted) return false;
    if (this.mode === 'push-to-talk' && !this.talking) return false;
    return this.headphones || !this.agentAudible;
  }

  /** Changes the session's configuration; resolves on session.updated. */
  async update(patch: Partial<SessionConfig>): Promise<void> {
    const connection = this.requireStreaming();
    this.config = { ...this.config, ...patch };
    // The voice is fixed once the session is ready; sending it again would be refused.
    const message = sessionUpdate(this.config, false);
    const answered = this.waitFor((waiter) => this.updateWaiters.push(waiter), 'session.updated');
    this.send(connection, message);
    await answered;
  }

  /** Asks the agent to speak now, optionally with one-shot instructions. */
  createReply(instructions?: string): void {
    const connection = this.requireStreaming();
    this.send(connection, instructions ? { type: 'reply.create', instructions } : { type: 'reply.create' });
  }

  private get agentAudible(): boolean {
    return this.replyInProgress || (this.playback?.playing ?? false);
  }

  private requireStreaming(): Connection {
    const connection = this.connection;
    if (!connection?.open || !STREAMING_STATES.has(this.stateNow)) {
      throw new VerbatimError('conflict', 'The assistant is not connected right now.');
    }
    return connection;
  }

  private sendChunk(chunk: Buffer): void {
    const connection = this.connection;
    if (!connection?.open || !STREAMING_STATES.has(this.stateNow)) {
      // Never buffered for later: after a reconnect it would be stale, and must not be sent twice.
      this.statsNow.droppedBytes += chunk.length;
      return;
    }
    // A closed microphone path still sends silence, so the agent's turn detection sees time pass.
    const audio = this.microphoneOpen ? chunk : Buffer.alloc(chunk.length);
    this.send(connection, { type: 'input.audio', audio: audio.toString('base64') });
    this.statsNow.sentChunks += 1;
    this.statsNow.sentBytes += chunk.length;
  }

  private async connect(): Promise<Connection> {
    const { auth, socketUrl } = this.options;
    let url = socketUrl;
    const headers: Record<string, string> = {};
    if (auth.kind === 'key') {
      if (!auth.apiKey) {
        throw new VerbatimError(
          'unauthorized',
          'Add your transcription API key in Settings to use the assistant.',
        );
      }
      headers.Authorization = `Bearer ${auth.apiKey}`;
    } else {
      const token = await auth.token();
      const withToken = new URL(socketUrl);
      withToken.searchParams.set('token', token);
      url = withToken.toString();
    }
    return new Promise<Connection>((resolve, reject) => {
      const connection: Connection = {
        open: false,
        socket: this.options.socketFactory(
          { url, headers },
          {
            open: () => {
              connection.open = true;
              resolve(connection);
            },
            message: (text) => {
              if (this.connection === connection) this.receive(connection, text);
            },
            close: () => {
              connection.open = false;
              connection.onClosed?.();
              this.socketClosed(connection);
            },
            failed: (error) => reject(error),
          },
        ),
      };
    });
  }

  /** Sends session.update (or, when picking a dropped session up, session.resume) and waits for session.ready. */
  private async configure(connection: Connection, resumeId?: string): Promise<void> {
    const ready = this.waitFor((waiter) => (this.readyWaiter = waiter), 'session.ready');
    this.resuming = resumeId !== undefined;
    this.send(
      connection,
      resumeId !== undefined ? { type: 'session.resume', session_id: resumeId } : sessionUpdate(this.config),
    );
    await ready;
  }

  private waitFor(register: (waiter: Waiter) => void, what: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const cancel = this.later(
        () => reject(new VerbatimError('timeout', `The voice assistant did not answer (${what}) in time.`)),
        this.options.answerTimeoutMs ?? 10_000,
      );
      register({
        resolve: () => {
          cancel();
          resolve();
        },
        reject: (error) => {
          cancel();
          reject(error);
        },
      });
    });
  }

  private failWaiters(error: VerbatimError): void {
    this.readyWaiter?.reject(error);
    this.readyWaiter = undefined;
    for (const waiter of this.updateWaiters.splice(0)) waiter.reject(error);
  }

  private send(connection: Connection, message: object): void {
    connection.socket.send(JSON.stringify(message));
  }

  private receive(connection: Connection, text: string): void {
    const parsed = parseServerMessage(text);
    if ('ignored' in parsed) return;
    if ('invalid' in parsed)
      return this.emit({ type: 'error', code: 'invalid_server_message', message: parsed.invalid });
    this.handle(connection, parsed.message);
  }

  private handle(connection: Connection, message: ServerMessage): void {
    switch (message.type) {
      case 'session.ready': {
        const resumed = this.resuming && message.session_id === this.sessionIdNow;
        this.resuming = false;
        this.sessionIdNow = message.session_id;
        this.droppedAt = undefined;
        this.reconnectAttempt = 0;
        this.emit({ type: 'session', sessionId: message.session_id, resumed });
        this.setState('ready');
        this.setState('listening');
        this.readyWaiter?.resolve();
        this.readyWaiter = undefined;
        return;
      }
      case 'session.updated':
        this.updateWaiters.shift()?.resolve();
        return;
      case 'session.error':
        return this.sessionError(connection, message.code, message.message);
      case 'input.speech.started':
        // Barge-in: the agent's voice stops at once.
        this.playback?.flush();
        this.setState('user-speaking');
        return;
      case 'input.speech.stopped':
        this.setState('thinking');
        return;
      case 'transcript.user.delta':
        this.emit({ type: 'user-transcript', text: message.text, final: false });
        return;
      case 'transcript.user':
        this.emit({ type: 'user-transcript', text: message.text, final: true, itemId: message.item_id });
        return;
      case 'reply.started':
        this.replyInProgress = true;
        this.emit({ type: 'reply-started', replyId: message.reply_id });
        if (this.stateNow !== 'user-speaking') this.setState('thinking');
        return;
      case 'reply.audio':
        this.playback?.enqueue(Buffer.from(message.data, 'base64'));
        if (this.stateNow !== 'user-speaking') this.setState('agent-speaking');
        return;
      case 'transcript.agent':
        this.emit({
          type: 'agent-transcript',
          text: message.text,
          replyId: message.reply_id,
          interrupted: message.interrupted,
        });
        return;
      case 'tool.call':
        return this.toolCall(message.call_id, message.name, message.arguments);
      case 'reply.done':
        return this.replyDone(connection, message.status === 'interrupted');
    }
  }

  private sessionError(connection: Connection, code: string, message: string): void {
    this.emit({ type: 'error', code, message });
    if (this.resuming && code === 'session_not_found') {
      // The server no longer has the session: start a fresh one on this connection.
      this.resuming = false;
      this.send(connection, sessionUpdate(this.config));
      return;
    }
    const error = new VerbatimError(
      code === 'invalid_session_config' ? 'invalid_input' : 'service',
      `The voice assistant reported an error (${code}): ${message}`,
      { code },
    );
    if (this.readyWaiter && FATAL_WHILE_CONFIGURING.has(code)) {
      this.readyWaiter.reject(error);
      this.readyWaiter = undefined;
    } else if (code === 'invalid_session_config') {
      this.updateWaiters.shift()?.reject(error);
    }
  }

  private toolCall(callId: string, name: string, args: unknown): void {
    this.emit({ type: 'tool-call', callId, name, arguments: args });
    const run = this.options.runTool ?? (() => Promise.resolve({ error: `There is no tool named ${name}.` }));
    // An error goes back as its sentence, which the agent reads out and acts on; never as JSON.
    const result = run(name, args).then(toolResultText, (error: unknown) =>
      toolResultText({ error: `${name} failed: ${error instanceof Error ? error.message : String(error)}` }),
    );
    this.pendingTools.push({ callId, name, result });
  }

  /**
   * The reply is over. Its tool results go back now (the spec sends accumulated tool.result
   * messages on reply.done); after an interrupted reply they are dropped, as the user moved on.
   */
  private replyDone(connection: Connection, interrupted: boolean): void {
    this.replyInProgress = false;
    this.emit({ type: 'reply-done', interrupted });
    const tools = this.pendingTools;
    this.pendingTools = [];
    for (const tool of tools) {
      void tool.result.then((result) => {
        const sent = !interrupted && this.connection === connection && connection.open;
        if (sent) this.send(connection, { type: 'tool.result', call_id: tool.callId, result });
        this.emit({ type: 'tool-result', callId: tool.callId, name: tool.name, result, sent });
      });
    }
    if (this.stateNow === 'agent-speaking' || this.stateNow === 'thinking') {
      if (!this.playback?.playing) this.setState('listening');
    }
  }

  private playbackChanged(playing: boolean): void {
    if (!playing && !this.replyInProgress && this.stateNow === 'agent-speaking') this.setState('listening');
  }

  private socketClosed(connection: Connection): void {
    if (this.connection !== connection || this.stopping) return;
    this.connection = undefined;
    this.pendingTools = [];
    this.replyInProgress = false;
    if (!this.sessionIdNow) {
      // Still starting: start() fails with this.
      this.failWaiters(new VerbatimError('network', 'The voice assistant closed the connection.'));
      return;
    }
    this.failWaiters(new VerbatimError('network', 'The connection to the voice assistant dropped.'));
    this.droppedAt ??= this.clock.now();
    this.setState('reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const initial = this.options.reconnectInitialDelayMs ?? 250;
    const max = this.options.reconnectMaxDelayMs ?? 4000;
    const delay = Math.min(max, initial * 2 ** this.reconnectAttempt);
    this.reconnectAttempt += 1;
    this.cancelReconnect = this.later(() => void this.reconnect(), delay);
  }

  private async reconnect(): Promise<void> {
    this.cancelReconnect = undefined;
    if (this.stopping) return;
    const lostFor = this.clock.now() - (this.droppedAt ?? this.clock.now());
    if (lostFor > (this.options.reconnectGiveUpMs ?? 60_000)) {
      this.emit({
        type: 'error',
        code: 'connection_lost',
        message: 'The connection to the voice assistant was lost.',
      });
      await this.stop();
      return;
    }
    let connection: Connection;
    try {
      connection = await this.connect();
    } catch {
      if (!this.stopping) this.scheduleReconnect();
      return;
    }
    if (this.stopping) return connection.socket.terminate();
    this.connection = connection;
    const withinGrace = lostFor < (this.options.resumeGraceMs ?? 30_000);
    try {
      await this.configure(connection, withinGrace ? this.sessionIdNow : undefined);
    } catch {
      // The socket's close (if it dropped) schedules the next attempt; otherwise start over.
      if (this.connection === connection && !this.stopping) {
        this.connection = undefined;
        connection.socket.terminate();
        this.scheduleReconnect();
      }
    }
  }

  private closeSocket(connection: Connection): Promise<void> {
    if (!connection.open) {
      connection.socket.terminate();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const drop = (): void => {
        connection.socket.terminate();
        resolve();
      };
      const cancel = this.later(drop, this.options.closeTimeoutMs ?? 2000, drop);
      connection.onClosed = () => {
        cancel();
        resolve();
      };
      connection.socket.close();
    });
  }

  private setState(state: VoiceState): void {
    if (state === this.stateNow) return;
    this.stateNow = state;
    this.emit({ type: 'state', state });
  }

  private emit(event: VoiceEvent): void {
    this.options.onEvent?.(event);
  }
}

function describeDeviceError(error: Error): string {
  return `The audio device stopped working: ${withoutFullStop(error.message)}. Pick another device in the assistant.`;
}
