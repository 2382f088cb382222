import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { basename, extname, join, normalize, resolve, sep } from 'node:path';
import { serveFileRange } from '../main/core/media/file-range';
import type { PlayableRecording } from '../main/core/media/redacted-recording';
import type { TextChoice } from '../shared/redaction';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { toAsciiJson } from './ascii-json';
import { z } from 'zod';
import { eventNames, type EventName } from '../shared/ipc/contract';
import type { Dispatch } from '../main/ipc/dispatcher';
import { contentSecurityPolicy } from '../main/core/app-policy/content-security-policy';
import type { EmitEvent } from '../main/ipc/emit-event';
import { DisposableStore, isDisposable, toDisposable, type IDisposable } from '../main/base/lifecycle';

/**
 * The web host: the same dispatcher the Electron main process uses, carried to a browser over
 * a WebSocket instead of ipcMain. It serves the built renderer on 127.0.0.1 and injects a
 * bridge script that builds `window.api` from the same contract, so the renderer cannot tell
 * which transport it has. The socket requires a random per-run token.
 */
export interface WebHostOptions {
  dispatch: Dispatch;
  /**
   * Called once with the function that pushes an event to every connected page; what it returns
   * (the event wiring) is disposed when the host closes.
   */
  connectEvents: (emit: EmitEvent) => IDisposable | void;
  rendererDir: string;
  bridgeFile: string;
  port?: number;
  token?: string;
  /** Where files dropped into the page are stored (the browser cannot tell us their path). */
  importDir: string;
  /**
   * The recording of a transcript for the page's player: redacted where its words are, unless
   * the page asks for the original (`?audio=original`, the reader's "Show unredacted text").
   */
  recordingOf: (transcriptId: string, audio: TextChoice) => Promise<PlayableRecording | undefined>;
  /** Where a socket or request fault is reported (a hostile or broken client must not stop the host). */
  logError?: (message: string, error: unknown) => void;
  /**
   * Where a refused malformed request is noted: one short line, at most one a minute (any web
   * page can send thousands, and they must not push the rest out of the log).
   */
  logRefusal?: (message: string) => void;
  /** The clock of that minute; a test passes its own. */
  now?: () => number;
}

export interface WebHost {
  url: string;
  /** The URL to open, carrying the token. */
  openUrl: string;
  token: string;
  /** How many pages are connected now: each answers a quit's request to store its typing. */
  pages(): number;
  close(): Promise<void>;
}

/**
 * The largest message a page may send. Requests are small JSON (recordings go over HTTP);
 * a larger frame is refused by the socket library before it is buffered.
 */
export const maxMessageBytes = 4 * 1024 * 1024;

const requestSchema = z.object({ id: z.number().int(), method: z.string(), input: z.unknown().optional() });

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export const bridgePath = '/__verbatim/bridge.js';
export const socketPath = '/__verbatim/api';
export const filesPath = '/__verbatim/files';
export const mediaPath = '/__verbatim/media/';

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(24).toString('hex');
  const rendererRoot = resolve(options.rendererDir);
  const sockets = new Set<WebSocket>();
  let origin = '';
  let port = 0;
  const logError = options.logError ?? ((message, error) => console.error(`[web-host] ${message}`, error));
  const noteRefusal = atMostEvery(
    refusalNoteEveryMs,
    options.logRefusal ?? ((message) => console.warn(`[web-host] ${message}`)),
    options.now ?? Date.now,
  );

  /**
   * Defence in depth beside the token: only this host's own names reach it (no DNS rebinding
   * through another name), and a browser request must come from the host's own page.
   */
  function fromOwnPage(request: IncomingMessage): boolean {
    const own = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!own.includes(request.headers.host ?? '')) return false;
    const from = request.headers.origin;
    return from === undefined || own.some((hostAndPort) => from === `http://${hostAndPort}`);
  }

  const server = createServer((request, response) => {
    if (!fromOwnPage(request)) {
      response.writeHead(403, { 'Content-Type': 'text/plain' }).end("Forbidden: not this host's own page");
      return;
    }
    void serveFile(request, response).catch((error: unknown) => {
      // A player that seeks drops the rest of the range it asked for: its choice, not a fault.
      if (request.destroyed && (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      if (error instanceof MalformedRequest) {
        noteRefusal(`refused a malformed request (400): ${error.message}`);
        if (!response.headersSent)
          response
            .writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
            .end(`Bad request: ${error.message}`);
        else response.destroy();
        return;
      }
      logError(`${request.method ?? ''} ${request.url ?? ''} failed`, error);
      if (!response.headersSent) response.writeHead(500).end('Internal error');
      else response.destroy();
    });
  });
  // A malformed HTTP request gets a 400 and closes that connection, never the host.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  async function serveFile(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = parsedUrl(request.url, origin);
    const pathname = url.pathname;
    const authorised = sameToken(url.searchParams.get('token') ?? '', token);
    if (pathname === filesPath && request.method === 'POST') {
      if (!authorised) return void response.writeHead(401).end();
      const stored = await storeImport(request, url.searchParams.get('name') ?? 'recording');
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ path: stored }));
      return;
    }
    if (pathname.startsWith(mediaPath) && request.method === 'GET') {
      if (!authorised) return void response.writeHead(401).end();
      const recording = await options.recordingOf(
        decodedPath(pathname.slice(mediaPath.length)),
        url.searchParams.get('audio') === 'original' ? 'original' : 'redacted',
      );
      if (recording?.kind === 'refused')
        return void response
          .writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end(recording.reason);
      const file = recording
        ? await serveFileRange(recording.path, request.headers.range, recording.rewrite)
        : undefined;
      if (!file || file.status === 404)
        return void response.writeHead(404).end('The recording was moved or deleted.');
      response.writeHead(file.status, file.headers);
      if (file.body) await pipeline(file.body, response);
      else response.end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const headers = {
      'Content-Security-Policy': contentSecurityPolicy({
        connectSources: [`${origin.replace(/^http/, 'ws')}${socketPath}`],
      }),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    };
    if (pathname === bridgePath) {
      const body = await readFile(options.bridgeFile);
      response.writeHead(200, { ...headers, 'Content-Type': contentTypes['.js'] }).end(body);
      return;
    }
    const relative = pathname === '/' ? 'index.html' : decodedPath(pathname.slice(1));
    const file = normalize(join(rendererRoot, relative));
    if (!file.startsWith(rendererRoot + sep)) {
      response.writeHead(403, headers).end('Forbidden');
      return;
    }
    let body: Buffer | string;
    try {
      body = await readFile(file);
    } catch {
      response.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    if (relative === 'index.html') body = injectBridge(body.toString('utf8'));
    response
      .writeHead(200, {
        ...headers,
        'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream',
      })
      .end(request.method === 'HEAD' ? undefined : body);
  }

  /** A dropped file's bytes, streamed into the import folder under a name that cannot escape it. */
  async function storeImport(request: IncomingMessage, name: string): Promise<string> {
    const stored = safeName(name);
    const folder = join(options.importDir, randomBytes(6).toString('hex'));
    await mkdir(folder, { recursive: true });
    const path = join(folder, stored);
    await pipeline(request, createWriteStream(path));
    return path;
  }

  const socketServer = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes });
  socketServer.on('error', (error) => logError('the socket server failed', error));
  server.on('upgrade', (request, socket, head) => {
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A page closing its connection is no fault worth a line in the log.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') logError('a page socket failed', error);
    });
    let url: URL;
    try {
      url = parsedUrl(request.url, origin);
    } catch (error) {
      noteRefusal(`refused a malformed request (400): ${(error as Error).message}`);
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    if (!fromOwnPage(request)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    if (url.pathname !== socketPath || !sameToken(url.searchParams.get('token') ?? '', token)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    socketServer.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      // A malformed frame (unmasked, bad UTF-8, a reserved bit, an unknown opcode, too large)
      // is an error on this socket: ws closes it with the right code; the host carries on.
      ws.on('error', (error) => logError('a page socket sent a malformed frame', error));
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data) => {
        void answer(ws, rawDataToText(data));
      });
    });
  });

  async function answer(ws: WebSocket, text: string): Promise<void> {
    let request: z.infer<typeof requestSchema>;
    try {
      request = requestSchema.parse(JSON.parse(text));
    } catch {
      ws.close(1003, 'Malformed request');
      return;
    }
    const result = await options.dispatch(request.method, request.input);
    // Answers and events go out as pure ASCII so the page parses one-byte text (see ascii-json.ts).
    if (ws.readyState === ws.OPEN) ws.send(toAsciiJson({ id: request.id, result }));
  }

  // What the host opened, closed with it: the event wiring, then every page's socket.
  const lifetime = new DisposableStore();
  const wiring = options.connectEvents((event: EventName, payload: unknown) => {
    if (!eventNames.includes(event)) return;
    const message = toAsciiJson({ event, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(message);
  });
  if (isDisposable(wiring)) lifetime.add(wiring);
  lifetime.add(
    toDisposable(() => {
      for (const ws of sockets) ws.terminate();
      socketServer.close();
    }),
  );

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: origin,
    openUrl: `${origin}/?token=${token}`,
    token,
    pages: () => [...sockets].filter((ws) => ws.readyState === ws.OPEN).length,
    close: async () => {
      lifetime.dispose();
      const closed = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      // A page still open keeps connections busy (an audio stream, a request in flight);
      // closing waits for none of them, or it could wait forever.
      server.closeAllConnections();
      await closed;
    },
  };
}

export function rawDataToText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data))).toString('utf8');
}

/**
 * A dropped file's name made safe to store: no folder, no character a file system refuses. A
 * name that is only dots (".", "..") names a folder, never a file: the request is refused.
 */
function safeName(name: string): string {
  const cleaned = basename(name)
    .replace(/[^\p{L}\p{N}._ -]/gu, '_')
    .slice(0, 120);
  if (/^\.+$/.test(cleaned)) throw new MalformedRequest('the file name is not a file’s name');
  return cleaned || 'recording';
}

/** A request the host cannot make sense of: a 400 and a short note, never an error with a stack. */
class MalformedRequest extends Error {}

/** How often at most a malformed request is noted in the log. */
export const refusalNoteEveryMs = 60_000;

function parsedUrl(url: string | undefined, origin: string): URL {
  try {
    return new URL(url ?? '/', origin);
  } catch {
    throw new MalformedRequest('the address is not a URL');
  }
}

/** A path's %-escapes decoded; a broken one ("%E0%A4%A") is a malformed request. */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw new MalformedRequest('the address has a broken %-escape');
  }
}

/**
 * `write`, at most once every `everyMs`: the notes in between are counted, and the next one
 * written says how many were left out.
 */
function atMostEvery(everyMs: number, write: (line: string) => void, now: () => number) {
  let lastAt = -Infinity;
  let leftOut = 0;
  return (line: string): void => {
    if (now() - lastAt < everyMs) {
      leftOut += 1;
      return;
    }
    write(leftOut > 0 ? `${line} (and ${leftOut} more like it since the last note)` : line);
    lastAt = now();
    leftOut = 0;
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The bridge must define window.api before the renderer's module script runs. */
function injectBridge(html: string): string {
  return html.replace('<head>', `<head>\n    <script src="${bridgePath}"></script>`);
}
