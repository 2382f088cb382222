import { expect } from 'vitest';
import { WebSocket } from 'ws';

/** Test helpers for the voice agent: a WebSocket client that queues server messages, and PCM. */

export interface ServerEvent {
  type: string;
  [field: string]: unknown;
}

const SAMPLE_RATE = 24_000;
const CHUNK_MS = 50;
const WAIT_MS = 10_000;

export function socketUrl(baseUrl: string, token?: string): string {
  const url = `${baseUrl.replace(/^http/, 'ws')}/v1/ws`;
  return token === undefined ? url : `${url}?token=${encodeURIComponent(token)}`;
}

export class VoiceTestClient {
  readonly received: ServerEvent[] = [];
  /** Index of the first message not yet taken by next() or until(). */
  private cursor = 0;
  private wake: (() => void) | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.received.push(JSON.parse(data.toString('utf8')) as ServerEvent);
      this.wake?.();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.wake?.();
      }),
    );
  }

  /** Opens the socket with the API key as a bearer token, or with a temporary token. */
  static async connect(baseUrl: string, auth: { key: string } | { token: string }): Promise<VoiceTestClient> {
    const socket =
      'key' in auth
        ? new WebSocket(socketUrl(baseUrl), { headers: { Authorization: `Bearer ${auth.key}` } })
        : new WebSocket(socketUrl(baseUrl, auth.token));
    const client = new VoiceTestClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** Connects and sends session.update; resolves with the session.ready message. */
  static async start(baseUrl: string, key: string, session: object = {}): Promise<VoiceTestClient> {
    const client = await VoiceTestClient.connect(baseUrl, { key });
    client.send({ type: 'session.update', session });
    await client.next('session.ready');
    return client;
  }

  send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  /** Sends PCM as input.audio messages of 50 ms each, as a microphone would. */
  sendAudio(pcm: Buffer): void {
    const chunkBytes = (SAMPLE_RATE * CHUNK_MS * 2) / 1000;
    for (let offset = 0; offset < pcm.length; offset += chunkBytes) {
      this.send({ type: 'input.audio', audio: pcm.subarray(offset, offset + chunkBytes).toString('base64') });
    }
  }

  /** The next message of `type` after the last one taken; messages in between are skipped. */
  async next(type: string): Promise<ServerEvent> {
    const taken = await this.until(type);
    return taken[taken.length - 1]!;
  }

  /** The next message not taken yet, whatever its type. */
  async nextAny(): Promise<ServerEvent> {
    const taken = await this.until();
    return taken[0]!;
  }

  /** Every message up to and including the next one of `type` (of any type if omitted). */
  async until(type?: string): Promise<ServerEvent[]> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const index = this.received.findIndex(
        (message, i) => i >= this.cursor && (type === undefined || message.type === type),
      );
      if (index >= 0) {
        const taken = this.received.slice(this.cursor, index + 1);
        this.cursor = index + 1;
        return taken;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0 || this.socket.readyState === WebSocket.CLOSED) {
        const seen = this.received.slice(this.cursor).map((message) => message.type);
        throw new Error(`No ${type ?? 'further'} message; received since: ${seen.join(', ') || 'nothing'}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  async close(): Promise<void> {
    if (this.socket.readyState !== WebSocket.CLOSED) this.socket.close();
    await this.closed;
  }
}

/** Opens a socket that is expected to be refused: the HTTP status, or the network error. */
export async function connectRefused(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number } | { error: string }> {
  const socket = new WebSocket(url, { headers });
  return new Promise((resolve) => {
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('error', (error) => resolve({ error: error.message }));
    socket.once('open', () => {
      resolve({ error: 'the socket opened' });
      socket.close();
    });
  });
}

/** A steady tone: the emulator's turn detection hears it as speech when loud enough. */
export function tone(ms: number, amplitude = 0.3, frequency = 220): Buffer {
  const samples = (SAMPLE_RATE * ms) / 1000;
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const value = amplitude * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE);
    pcm.writeInt16LE(Math.round(value * 32_767), i * 2);
  }
  return pcm;
}

export function silence(ms: number): Buffer {
  return Buffer.alloc(((SAMPLE_RATE * ms) / 1000) * 2);
}

/** A spoken turn: speech followed by enough silence (700 ms) for the turn to end. */
export function utterance(speechMs = 1000): Buffer {
  return Buffer.concat([tone(speechMs), silence(700)]);
}

export async function queueUtterance(baseUrl: string, text: string | string[]): Promise<void> {
  const response = await fetch(`${baseUrl}/__admin/voice/next-utterance`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  if (!response.ok) throw new Error(`queueing an utterance failed: ${response.status}`);
}

export function decodedAudio(messages: ServerEvent[]): Buffer[] {
  return messages
    .filter((message) => message.type === 'reply.audio')
    .map((message) => Buffer.from(String(message.data), 'base64'));
}

export function peak(pcm: Buffer): number {
  let max = 0;
  for (let offset = 0; offset < pcm.length; offset += 2)
    max = Math.max(max, Math.abs(pcm.readInt16LE(offset)));
  return max;
}

/** vitest's asymmetric matchers, typed as unknown instead of any. */
export function anyString(): unknown {
  return expect.any(String) as unknown;
}

export function matching(pattern: RegExp): unknown {
  return expect.stringMatching(pattern) as unknown;
}
