import { WebSocket, type RawData } from 'ws';
import { VerbatimError } from '../../../shared/errors';

/**
 * The WebSocket as the voice session sees it. Injected, so the session's logic runs against a
 * fake in tests and against `ws` (which, unlike a browser socket, can set the Authorization
 * header the voice agent wants) in the app.
 */
export interface VoiceSocketHandlers {
  open(): void;
  message(text: string): void;
  /** The socket is gone: closed by either side, or broken. */
  close(code: number, reason: string): void;
  /** Opening failed (DNS, refused, HTTP status instead of an upgrade): said for a journalist. */
  failed(error: VerbatimError): void;
}

export interface VoiceSocket {
  send(text: string): void;
  /** Starts the close handshake. */
  close(): void;
  /** Drops the connection at once, without a handshake. */
  terminate(): void;
}

export interface SocketRequest {
  url: string;
  headers: Record<string, string>;
}

export type VoiceSocketFactory = (request: SocketRequest, handlers: VoiceSocketHandlers) => VoiceSocket;

/** How long an upgrade may take before a connect counts as failed: a hang becomes an error. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

export function describeConnectFailure(host: string, error: unknown): VerbatimError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new VerbatimError(
      'network',
      `Can't find the voice assistant's server (${host}). Check your connection.`,
    );
  }
  if (code === 'ECONNREFUSED') {
    return new VerbatimError('network', `The voice assistant's server (${host}) refused the connection.`);
  }
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(String((error as Error | null)?.message))) {
    return new VerbatimError('timeout', `The voice assistant's server (${host}) did not answer in time.`);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new VerbatimError('network', `Couldn't connect to the voice assistant (${host}): ${detail}`);
}

export function describeRefusal(host: string, status: number): VerbatimError {
  if (status === 401 || status === 403) {
    return new VerbatimError(
      'unauthorized',
      'The voice assistant refused the API key. Check the transcription key in Settings.',
    );
  }
  if (status === 429)
    return new VerbatimError('rate_limited', 'The voice assistant is busy. Try again shortly.');
  return new VerbatimError(
    'service',
    `The voice assistant's server (${host}) answered with status ${status}.`,
  );
}

/** The app's socket: `ws` in Node. */
export const wsSocketFactory: VoiceSocketFactory = (request, handlers) => {
  const host = new URL(request.url).host;
  const socket = new WebSocket(request.url, {
    headers: request.headers,
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
  });
  let opened = false;
  let failed = false;
  const fail = (error: VerbatimError): void => {
    if (failed) return;
    failed = true;
    handlers.failed(error);
  };
  socket.on('open', () => {
    opened = true;
    handlers.open();
  });
  socket.on('message', (data, isBinary) => {
    if (!isBinary) handlers.message(rawText(data));
  });
  socket.on('unexpected-response', (req, response) => {
    fail(describeRefusal(host, response.statusCode ?? 0));
    req.destroy();
  });
  socket.on('error', (error) => {
    if (!opened) fail(describeConnectFailure(host, error));
  });
  socket.on('close', (code, reason) => {
    if (opened) handlers.close(code, reason.toString('utf8'));
    else fail(describeConnectFailure(host, new Error('the connection closed before it opened')));
  });
  return {
    send: (text) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
    },
    close: () => socket.close(1000, 'Closed by Verbatim'),
    terminate: () => socket.terminate(),
  };
};

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
