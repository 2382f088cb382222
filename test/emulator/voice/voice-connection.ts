import { WebSocket, type RawData } from 'ws';
import {
  parseClientMessage,
  type ClientMessage,
  type ServerMessage,
  type SessionErrorCode,
} from './messages';
import { decodePcm16 } from './pcm';
import { applySessionPatch, DEFAULT_CONFIG } from './session-config';
import type { SessionStore } from './session-store';
import type { SessionSink, VoiceSession } from './voice-session';

/**
 * One WebSocket of the voice agent. Its first valid session.update starts a session (or a
 * session.resume picks a dropped one up again); every later message goes to that session.
 */
export class VoiceConnection implements SessionSink {
  private session: VoiceSession | undefined;

  constructor(
    private readonly socket: WebSocket,
    private readonly store: SessionStore,
  ) {
    socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    socket.on('close', () => this.session?.detach(this));
    // A broken socket also emits 'close', which is all the session needs to know.
    socket.on('error', () => undefined);
  }

  send(message: ServerMessage): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  close(code: number, reason: string): void {
    this.session = undefined;
    this.socket.close(code, reason);
  }

  private fail(code: SessionErrorCode, message: string): void {
    this.send({ type: 'session.error', code, message });
  }

  private receive(data: RawData, isBinary: boolean): void {
    // A socket being closed (e.g. its session moved to another connection) takes no more messages.
    if (this.socket.readyState !== WebSocket.OPEN) return;
    if (isBinary) return this.fail('invalid_json', 'Binary frames are not accepted; send JSON text messages');
    const text = rawText(data);
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return this.fail(parsed.code, parsed.message);
    this.handle(parsed.message);
  }

  private handle(message: ClientMessage): void {
    const session = this.session;
    switch (message.type) {
      case 'session.update': {
        if (session) {
          const refused = session.update(message.session);
          if (refused) this.fail('invalid_session_config', refused);
          return;
        }
        const applied = applySessionPatch(DEFAULT_CONFIG, message.session, false);
        if ('error' in applied) return this.fail('invalid_session_config', applied.error);
        this.session = this.store.create(applied.config);
        this.session.attach(this, false);
        return;
      }
      case 'session.resume': {
        if (session) return this.fail('session_already_started', 'This connection already has a session');
        const resumed = this.store.resumable(message.session_id);
        if (!resumed) {
          return this.fail(
            'session_not_found',
            `No resumable session ${message.session_id}; it is unknown or its grace window is over. Start a new session with session.update.`,
          );
        }
        this.session = resumed;
        resumed.attach(this, true);
        return;
      }
    }
    if (!session) {
      return this.fail('session_not_ready', `${message.type} needs a session: send session.update first`);
    }
    switch (message.type) {
      case 'input.audio': {
        const decoded = decodePcm16(message.audio);
        if ('error' in decoded) return this.fail('invalid_audio', decoded.error);
        return session.receiveAudio(decoded.pcm);
      }
      case 'tool.result':
        if (!session.acceptToolResult(message.call_id, message.result)) {
          this.fail('unknown_call_id', `No tool call ${message.call_id} is waiting for a result`);
        }
        return;
      case 'reply.create':
        return session.createReply(message.instructions);
    }
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
}
