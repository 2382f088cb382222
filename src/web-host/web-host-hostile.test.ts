import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { maxMessageBytes, rawDataToText, socketPath, startWebHost, type WebHost } from './web-host';
import { createDispatcher } from '../main/ipc/dispatcher';
import { createHandlers } from '../main/ipc/create-handlers';
import { wireEvents } from '../main/ipc/events';
import { MemorySecrets } from '../main/core/secrets/secret-store';
import { composeServices } from '../main/compose';

/**
 * The web host as a hostile local user would try it: raw frames no browser sends, requests
 * from other origins and host names. It must answer each with a refusal and stay up.
 */
let host: WebHost;
let services: ReturnType<typeof composeServices>;
const faults: string[] = [];
const root = mkdtempSync(join(tmpdir(), 'verbatim-web-host-hostile-'));

beforeAll(async () => {
  const rendererDir = join(root, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  writeFileSync(join(root, 'bridge.js'), '/* bridge */');
  services = composeServices({
    dataDir: join(root, 'data'),
    appInfo: { name: 'Verbatim', version: '1', platform: 'linux' },
    secrets: new MemorySecrets(),
  });
  host = await startWebHost({
    dispatch: createDispatcher(createHandlers(services)),
    connectEvents: (emit) => wireEvents(services, emit),
    rendererDir,
    bridgeFile: join(root, 'bridge.js'),
    importDir: join(root, 'imports'),
    recordingOf: () => Promise.resolve(undefined),
    logError: (message) => faults.push(message),
  });
});

afterAll(async () => {
  await host.close();
  await services.close();
});

const port = (): number => Number(new URL(host.url).port);

/** A raw TCP connection that has completed the WebSocket handshake with the right token. */
async function upgradedSocket(): Promise<Socket> {
  const socket = connect(port(), '127.0.0.1');
  await new Promise<void>((resolveConnect) => socket.once('connect', () => resolveConnect()));
  socket.write(
    [
      `GET ${socketPath}?token=${host.token} HTTP/1.1`,
      `Host: 127.0.0.1:${port()}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  await new Promise<void>((resolveHandshake, reject) => {
    socket.once('data', (data: Buffer) =>
      data.toString().startsWith('HTTP/1.1 101') ? resolveHandshake() : reject(new Error(data.toString())),
    );
  });
  return socket;
}

/** A client frame: FIN + opcode (+ reserved bits), masked unless told otherwise. */
function frame(
  payload: Buffer,
  options: { opcode?: number; rsv?: number; masked?: boolean; declaredLength?: number } = {},
): Buffer {
  const { opcode = 0x1, rsv = 0, masked = true } = options;
  const length = options.declaredLength ?? payload.length;
  const head: number[] = [0x80 | rsv | opcode];
  const maskBit = masked ? 0x80 : 0;
  if (length < 126) head.push(maskBit | length);
  else if (length < 65_536) head.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    head.push(maskBit | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(...big);
  }
  if (!masked) return Buffer.concat([Buffer.from(head), payload]);
  const mask = Buffer.from([1, 2, 3, 4]);
  const body = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]!));
  return Buffer.concat([Buffer.from(head), mask, body]);
}

/** Sends a frame on a fresh connection and waits for the host to close that connection. */
async function sendAndExpectClose(bytes: Buffer): Promise<void> {
  const socket = await upgradedSocket();
  const closed = new Promise<void>((resolveClose) => socket.once('close', () => resolveClose()));
  socket.on('error', () => undefined);
  socket.write(bytes);
  await closed;
}

/** A well-behaved page: connects with the token and makes one call. */
async function goodClientAnswers(): Promise<boolean> {
  const ws = new WebSocket(`ws://127.0.0.1:${port()}${socketPath}?token=${host.token}`);
  await new Promise<void>((resolveOpen, reject) => {
    ws.once('open', () => resolveOpen());
    ws.once('error', reject);
  });
  const answer = await new Promise<{ id: number; result: { ok: boolean } }>((resolveAnswer) => {
    ws.once('message', (data) =>
      resolveAnswer(JSON.parse(rawDataToText(data)) as { id: number; result: { ok: boolean } }),
    );
    ws.send(JSON.stringify({ id: 7, method: 'app.info' }));
  });
  ws.close();
  return answer.id === 7 && answer.result.ok;
}

describe('the web host under malformed frames', () => {
  const hello = Buffer.from(JSON.stringify({ id: 1, method: 'app.info' }));
  it.each([
    ['an unmasked client frame', frame(hello, { masked: false })],
    ['a text frame that is not UTF-8', frame(Buffer.from([0xc3, 0x28, 0xa0, 0xa1]))],
    ['a frame with a reserved bit set', frame(hello, { rsv: 0x40 })],
    ['a frame with an unknown opcode', frame(hello, { opcode: 0x3 })],
    [
      'a frame larger than the host accepts',
      frame(Buffer.alloc(16), { declaredLength: maxMessageBytes + 1 }),
    ],
    ['a control frame over 125 bytes', frame(Buffer.alloc(200), { opcode: 0x9 })],
  ])('closes the connection on %s and answers the next good client', async (_name, bytes) => {
    const before = faults.length;
    await sendAndExpectClose(bytes);
    expect(await goodClientAnswers()).toBe(true);
    expect(faults.length).toBeGreaterThan(before);
  });

  it('survives a burst of random bytes after a good handshake', async () => {
    let seed = 42;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 20; round++) {
      const garbage = Buffer.from(
        Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256)),
      );
      const socket = await upgradedSocket();
      socket.on('error', () => undefined);
      socket.write(garbage);
      socket.destroy();
    }
    expect(await goodClientAnswers()).toBe(true);
  });

  it('answers a malformed HTTP request with 400 and keeps serving', async () => {
    const socket = connect(port(), '127.0.0.1');
    await new Promise<void>((resolveConnect) => socket.once('connect', () => resolveConnect()));
    const reply = new Promise<string>((resolveReply) =>
      socket.once('data', (data: Buffer) => resolveReply(data.toString())),
    );
    socket.write('GARBAGE / HTTP/9.9\r\n\x00\x01\r\n\r\n');
    expect(await reply).toMatch(/^HTTP\/1\.1 400/);
    socket.destroy();
    expect(await goodClientAnswers()).toBe(true);
  });
});

/** One call over the socket, as the page's bridge makes it. */
async function callOverSocket(
  method: string,
  input: unknown,
): Promise<{ ok: boolean; error?: { code: string; message: string } }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port()}${socketPath}?token=${host.token}`);
  await new Promise<void>((resolveOpen, reject) => {
    ws.once('open', () => resolveOpen());
    ws.once('error', reject);
  });
  const answer = await new Promise<{ result: { ok: boolean; error?: { code: string; message: string } } }>(
    (resolveAnswer) => {
      ws.once('message', (data) =>
        resolveAnswer(JSON.parse(rawDataToText(data)) as { result: { ok: boolean } }),
      );
      ws.send(JSON.stringify({ id: 1, method, input }));
    },
  );
  ws.close();
  return answer.result;
}

describe('the contract refuses what a hostile page could send', () => {
  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'ftp://files.example/a.mp3'])(
    'a recording at %s is refused, not stored',
    async (url) => {
      const result = await callOverSocket('transcripts.create', { source: { kind: 'url', url } });
      expect(result.ok).toBe(false);
      expect(result.error?.code).toBe('invalid_input');
      expect(result.error?.message).toContain('Only web addresses');
      expect(await services.core.library.list()).toEqual([]);
    },
  );

  it('a 3 MB preset is refused and Settings keep what they had', async () => {
    const before = await callOverSocket('settings.get', undefined);
    const result = await callOverSocket('settings.set', {
      presets: [{ name: 'Huge', options: { prompt: 'x'.repeat(3_000_000) } }],
    });
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(/too large/);
    expect(await callOverSocket('settings.get', undefined)).toEqual(before);
  });
});

describe('the web host checks where a request comes from, beside the token', () => {
  it('refuses a socket opened from another origin, even with the token', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port()}${socketPath}?token=${host.token}`, {
      origin: 'http://evil.example',
    });
    const status = await new Promise<number>((resolveStatus) => {
      ws.once('unexpected-response', (_request, response) => resolveStatus(response.statusCode ?? 0));
      ws.once('open', () => resolveStatus(101));
    });
    expect(status).toBe(403);
  });

  it('refuses a request whose Host is another name (DNS rebinding)', async () => {
    // fetch cannot set Host: send the request raw.
    const socket = connect(port(), '127.0.0.1');
    await new Promise<void>((resolveConnect) => socket.once('connect', () => resolveConnect()));
    const reply = new Promise<string>((resolveReply) =>
      socket.once('data', (data: Buffer) => resolveReply(data.toString())),
    );
    socket.write(
      `GET /?token=${host.token} HTTP/1.1\r\nHost: rebound.example:${port()}\r\nConnection: close\r\n\r\n`,
    );
    expect(await reply).toMatch(/^HTTP\/1\.1 403/);
    socket.destroy();
  });

  it('serves its own page under both of its names', async () => {
    for (const name of ['127.0.0.1', 'localhost']) {
      const socket = connect(port(), '127.0.0.1');
      await new Promise<void>((resolveConnect) => socket.once('connect', () => resolveConnect()));
      const reply = new Promise<string>((resolveReply) =>
        socket.once('data', (data: Buffer) => resolveReply(data.toString())),
      );
      socket.write(
        `GET / HTTP/1.1\r\nHost: ${name}:${port()}\r\nOrigin: http://${name}:${port()}\r\nConnection: close\r\n\r\n`,
      );
      expect(await reply).toMatch(/^HTTP\/1\.1 200/);
      socket.destroy();
    }
  });
});
