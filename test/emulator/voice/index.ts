import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { HttpError, sendJson } from '../http';
import type { EmulatorApp, RequestContext } from '../types';
import { IdSequence } from './ids';
import { publishStore, SessionStore } from './session-store';
import { TemporaryTokens } from './temporary-tokens';
import { VoiceConnection } from './voice-connection';

export { voiceSessionRecords } from './session-store';

/**
 * The real-time voice agent. The spec does not show its address; as at AssemblyAI
 * (wss://agents.assemblyai.com/v1/ws) it is the WebSocket /v1/ws, next to GET /v1/token.
 */
const SOCKET_PATH = '/v1/ws';
const UNAUTHORIZED = { error: 'Authentication error, API token missing/invalid' };

export function register(app: EmulatorApp): void {
  const ids = new IdSequence();
  const tokens = new TemporaryTokens(app.clock, ids);
  const store = new SessionStore(app, ids);
  const sockets = new WebSocketServer({ noServer: true });

  app.route({
    method: 'GET',
    pattern: /^\/v1\/token$/,
    handler: (ctx) => issueToken(ctx, app, tokens),
  });

  app.upgrade((req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (url.pathname !== SOCKET_PATH) return false;
    publishStore(app, store);
    // Refused before the handshake so a client fails fast instead of opening a useless socket.
    // (AssemblyAI answers an expired token with session.error "unauthorized" on the open socket.)
    const token = url.searchParams.get('token');
    const authorized =
      req.headers.authorization === `Bearer ${app.options.key}` || (token !== null && tokens.redeem(token));
    if (!authorized) {
      refuseUpgrade(socket, 401, 'Unauthorized', UNAUTHORIZED);
      return true;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => new VoiceConnection(ws, store));
    return true;
  });

  app.onReset(() => {
    store.clear();
    tokens.clear();
    ids.reset();
  });
}

/**
 * GET /v1/token. AssemblyAI takes the key raw or as a bearer token here, requires
 * expires_in_seconds (1..600) and answers {token, expires_in_seconds}; the emulator defaults it
 * to 60 so a bare request works. max_session_duration_seconds is not emulated.
 */
function issueToken(ctx: RequestContext, app: EmulatorApp, tokens: TemporaryTokens): void {
  const authorization = ctx.req.headers.authorization;
  if (authorization !== app.options.key && authorization !== `Bearer ${app.options.key}`) {
    throw new HttpError(401, UNAUTHORIZED);
  }
  const requested = ctx.url.searchParams.get('expires_in_seconds');
  const expiresInSeconds = requested === null ? 60 : Number(requested);
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > 600) {
    throw new HttpError(400, { error: 'expires_in_seconds must be an integer from 1 to 600' });
  }
  sendJson(ctx.res, 200, { token: tokens.issue(expiresInSeconds), expires_in_seconds: expiresInSeconds });
}

function refuseUpgrade(socket: Duplex, status: number, reason: string, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}
