import type { Clock } from '../types';
import {
  greetingReply,
  replyToRequest,
  replyToUtterance,
  replyWithToolResults,
  type PlannedReply,
} from './agent-script';
import type { IdSequence } from './ids';
import type { ServerMessage } from './messages';
import { CHARACTER_MS, synthesizeCharacter } from './pcm';
import { applySessionPatch, type AgentConfig, type SessionPatch } from './session-config';
import { TurnDetector } from './turn-detector';

/**
 * One voice agent session: its configuration, conversation, turn detection and replies. It
 * outlives its connection: after a drop a new connection may resume it within the grace window.
 */

/** AssemblyAI keeps a dropped session resumable for 30 s (emulator clock). */
const RESUME_GRACE_MS = 30_000;
/**
 * Reply audio goes out no faster than twice real time: one 50 ms chunk per 25 ms of emulator
 * clock, so --speed F makes it F times faster still.
 */
const CHUNK_INTERVAL_MS = CHARACTER_MS / 2;
/** transcript.user.delta reveals one more word of the utterance per 200 ms of speech. */
const MS_PER_REVEALED_WORD = 200;

/** Where a session's messages go: the connection it is currently attached to. */
export interface SessionSink {
  send(message: ServerMessage): void;
  close(code: number, reason: string): void;
}

export interface ConversationItem {
  item_id: string;
  role: 'user' | 'agent' | 'tool';
  text: string;
  /** For agent items: the user barged in (or the connection dropped) before the end. */
  interrupted?: boolean;
}

/** What tests can read about a session (see voiceSessionRecords). */
export interface VoiceSessionRecord {
  session_id: string;
  connected: boolean;
  /** PCM bytes of every accepted input.audio, over all connections of the session. */
  input_audio_bytes: number;
  input_audio_chunks: number;
  conversation: ConversationItem[];
}

export interface SessionEnvironment {
  clock: Clock;
  ids: IdSequence;
  /** The next queued utterance (POST /__admin/voice/next-utterance), if any. */
  takeUtterance(): string | undefined;
  /** The grace window ran out: forget the session. */
  expired(session: VoiceSession): void;
}

interface ActiveReply {
  id: string;
  itemId: string;
  characters: string[];
  /** Characters whose audio chunk was sent. */
  spoken: number;
  plan: PlannedReply;
}

interface UserTurn {
  words: string[];
  revealed: number;
}

interface PendingToolCall {
  name: string;
  result?: string;
}

export class VoiceSession {
  private sink: SessionSink | undefined;
  private detachedAt: number | undefined;
  private cancelExpiry: (() => void) | undefined;
  private readonly conversation: ConversationItem[] = [];
  private inputAudioBytes = 0;
  private inputAudioChunks = 0;
  private readonly turns: TurnDetector;
  private turn: UserTurn | undefined;
  private turnCount = 0;
  private lastUtterance: string | undefined;
  private readonly queue: PlannedReply[] = [];
  private current: ActiveReply | undefined;
  private draining = false;
  /** Tool calls of the last reply that still wait for (or hold) their tool.result. */
  private pendingCalls = new Map<string, PendingToolCall>();
  /** Calls whose results no longer matter (the user spoke again); late results are ignored. */
  private readonly droppedCalls = new Set<string>();

  constructor(
    readonly id: string,
    private config: AgentConfig,
    private readonly env: SessionEnvironment,
  ) {
    this.turns = new TurnDetector(() => this.config.vadThreshold, {
      speechStarted: () => this.speechStarted(),
      speechContinued: (speechMs) => this.speechContinued(speechMs),
      speechStopped: () => this.speechStopped(),
    });
  }

  /**
   * Attaches a connection and sends session.ready; a new session then speaks its greeting. A
   * connection still attached (one whose drop the server has not noticed) is closed.
   */
  attach(sink: SessionSink, resumed: boolean): void {
    if (this.sink && this.sink !== sink) this.sink.close(4000, 'Session resumed on another connection');
    this.sink = sink;
    this.detachedAt = undefined;
    this.cancelExpiry?.();
    this.cancelExpiry = undefined;
    this.send({ type: 'session.ready', session_id: this.id });
    if (!resumed && this.config.greeting) this.requestReply(greetingReply(this.config));
  }

  /**
   * The connection closed. Audio of a reply in flight is lost (a resumed session does not
   * replay it) and a half-heard turn is forgotten; the rest waits for a resume.
   */
  detach(sink: SessionSink): void {
    if (this.sink !== sink) return;
    this.sink = undefined;
    this.abandonReplies();
    this.turns.reset();
    this.turn = undefined;
    this.detachedAt = this.env.clock.now();
    this.cancelExpiry = this.env.clock.setTimeout(() => this.env.expired(this), RESUME_GRACE_MS);
  }

  /** Can a new connection take this session over now? */
  resumable(): boolean {
    return this.detachedAt === undefined || this.env.clock.now() - this.detachedAt < RESUME_GRACE_MS;
  }

  /** Ends the session for good (admin reset or emulator shutdown). */
  end(): void {
    this.cancelExpiry?.();
    this.abandonReplies();
    this.sink?.close(1012, 'Emulator reset');
    this.sink = undefined;
  }

  /** Applies a later session.update; returns why it was refused, if it was. */
  update(patch: SessionPatch): string | undefined {
    const applied = applySessionPatch(this.config, patch, true);
    if ('error' in applied) return applied.error;
    this.config = applied.config;
    this.send({ type: 'session.updated' });
    return undefined;
  }

  receiveAudio(pcm: Buffer): void {
    this.inputAudioBytes += pcm.length;
    this.inputAudioChunks += 1;
    this.turns.push(pcm);
  }

  /** reply.create: speak now, after any reply already queued. */
  createReply(instructions: string | undefined): void {
    this.requestReply(replyToRequest(instructions, this.lastUtterance, this.config));
  }

  /**
   * Takes a tool.result. Once every call of the reply has its result, the agent answers with a
   * follow-up reply using them. Returns false for a call the agent is not waiting on.
   */
  acceptToolResult(callId: string, result: string): boolean {
    if (this.droppedCalls.has(callId)) return true;
    const call = this.pendingCalls.get(callId);
    if (!call || call.result !== undefined) return false;
    call.result = result;
    this.conversation.push({ item_id: this.env.ids.next('item'), role: 'tool', text: result });
    const calls = [...this.pendingCalls.values()];
    if (calls.every((pending) => pending.result !== undefined)) {
      this.pendingCalls = new Map();
      const results = calls.map(({ name, result }) => ({ name, result: result ?? '' }));
      this.requestReply(replyWithToolResults(results, this.config));
    }
    return true;
  }

  record(): VoiceSessionRecord {
    return {
      session_id: this.id,
      connected: this.sink !== undefined,
      input_audio_bytes: this.inputAudioBytes,
      input_audio_chunks: this.inputAudioChunks,
      conversation: this.conversation.map((item) => ({ ...item })),
    };
  }

  private send(message: ServerMessage): void {
    this.sink?.send(message);
  }

  private speechStarted(): void {
    this.send({ type: 'input.speech.started' });
    this.bargeIn();
    // The user moved on: results of calls still outstanding no longer get a follow-up.
    for (const callId of this.pendingCalls.keys()) this.droppedCalls.add(callId);
    this.pendingCalls = new Map();
    this.turnCount += 1;
    const text = this.env.takeUtterance() ?? `Placeholder utterance ${this.turnCount}`;
    this.turn = { words: text.split(/\s+/).filter(Boolean), revealed: 0 };
  }

  private speechContinued(speechMs: number): void {
    const turn = this.turn;
    if (!turn) return;
    const revealed = Math.min(turn.words.length, Math.floor(speechMs / MS_PER_REVEALED_WORD));
    if (revealed <= turn.revealed) return;
    turn.revealed = revealed;
    this.send({ type: 'transcript.user.delta', text: turn.words.slice(0, revealed).join(' ') });
  }

  private speechStopped(): void {
    const turn = this.turn;
    if (!turn) return;
    this.turn = undefined;
    const text = turn.words.join(' ');
    const itemId = this.env.ids.next('item');
    this.send({ type: 'input.speech.stopped' });
    this.send({ type: 'transcript.user', text, item_id: itemId });
    this.conversation.push({ item_id: itemId, role: 'user', text });
    this.lastUtterance = text;
    this.requestReply(replyToUtterance(text, this.config));
  }

  private requestReply(plan: PlannedReply): void {
    this.queue.push(plan);
    if (!this.draining) void this.drain();
  }

  /** Speaks queued replies one after the other while a connection is attached. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      for (let plan = this.queue.shift(); plan && this.sink; plan = this.queue.shift())
        await this.speak(plan);
    } finally {
      this.draining = false;
    }
  }

  private async speak(plan: PlannedReply): Promise<void> {
    const reply: ActiveReply = {
      id: this.env.ids.next('reply'),
      itemId: this.env.ids.next('item'),
      characters: Array.from(plan.text),
      spoken: 0,
      plan,
    };
    this.current = reply;
    this.send({ type: 'reply.started', reply_id: reply.id });
    const start = this.env.clock.now();
    for (const [index, character] of reply.characters.entries()) {
      if (index > 0) await this.env.clock.sleep(start + index * CHUNK_INTERVAL_MS - this.env.clock.now());
      // A barge-in or a dropped connection ended the reply while it waited.
      if (this.current !== reply) return;
      const pcm = synthesizeCharacter(character, this.config.voice, this.config.volume);
      this.send({ type: 'reply.audio', data: pcm.toString('base64') });
      reply.spoken = index + 1;
    }
    this.current = undefined;
    this.send({
      type: 'transcript.agent',
      text: plan.text,
      reply_id: reply.id,
      item_id: reply.itemId,
      interrupted: false,
    });
    this.conversation.push({ item_id: reply.itemId, role: 'agent', text: plan.text });
    // AssemblyAI's order: the calls follow the reply's transcript; the client sends the
    // results once reply.done arrives.
    for (const call of plan.toolCalls) {
      const callId = this.env.ids.next('call');
      this.pendingCalls.set(callId, { name: call.name });
      this.send({ type: 'tool.call', call_id: callId, name: call.name, arguments: call.arguments });
    }
    this.send({ type: 'reply.done', status: 'completed' });
  }

  /**
   * The user started speaking: the reply stops at once with the words spoken so far, and
   * replies not yet started are dropped. An interrupted reply never issues its tool calls.
   */
  private bargeIn(): void {
    this.queue.length = 0;
    const reply = this.current;
    if (!reply) return;
    this.current = undefined;
    const text = spokenText(reply);
    this.send({
      type: 'transcript.agent',
      text,
      reply_id: reply.id,
      item_id: reply.itemId,
      interrupted: true,
    });
    this.conversation.push({ item_id: reply.itemId, role: 'agent', text, interrupted: true });
    this.send({ type: 'reply.done', status: 'interrupted' });
  }

  private abandonReplies(): void {
    this.queue.length = 0;
    const reply = this.current;
    if (!reply) return;
    this.current = undefined;
    this.conversation.push({
      item_id: reply.itemId,
      role: 'agent',
      text: spokenText(reply),
      interrupted: true,
    });
  }
}

/** The reply's text up to the last word whose audio was completely sent. */
function spokenText(reply: ActiveReply): string {
  const spoken = reply.characters.slice(0, reply.spoken).join('');
  const next = reply.characters[reply.spoken];
  const wholeWords = next === undefined || /\s/.test(next) ? spoken : spoken.replace(/\S*$/, '');
  return wholeWords.trimEnd();
}
