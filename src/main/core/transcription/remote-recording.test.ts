import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { estimateRemoteDuration } from './remote-recording';
import { encodeWavPcm16 } from '../../../../test/emulator/speech/wav-encode';

/** 10 s of 16 kHz mono PCM16. */
const wav = Buffer.from(encodeWavPcm16(16_000, [new Int16Array(160_000)]));

let server: Server;
let base: string;
let bytesServed = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ranged.wav' && req.headers.range) {
      res.writeHead(206, { 'Content-Range': `bytes 0-63/${wav.length}`, 'Content-Length': 64 });
      bytesServed += 64;
      return res.end(wav.subarray(0, 64));
    }
    if (req.url === '/whole.wav') {
      res.writeHead(200, { 'Content-Length': wav.length });
      bytesServed += wav.length;
      return res.end(wav);
    }
    if (req.url === '/notes.txt') return res.writeHead(200).end('hello');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fetchLike = (input: string, init: RequestInit) => fetch(input, init);

describe('estimating the length of a recording at a URL', () => {
  it('reads the length of a WAV from its first bytes and its size', async () => {
    bytesServed = 0;
    expect(await estimateRemoteDuration(fetchLike, `${base}/ranged.wav`)).toBe(10_000);
    expect(bytesServed).toBe(64); // one small ranged request, not the recording
  });

  it('works with a server that ignores Range', async () => {
    expect(await estimateRemoteDuration(fetchLike, `${base}/whole.wav`)).toBe(10_000);
  });

  it('says "unknown" for what is not audio, is missing, or cannot be reached', async () => {
    expect(await estimateRemoteDuration(fetchLike, `${base}/notes.txt`)).toBeUndefined();
    expect(await estimateRemoteDuration(fetchLike, `${base}/gone.mp3`)).toBeUndefined();
    expect(await estimateRemoteDuration(fetchLike, 'http://127.0.0.1:1/x.wav')).toBeUndefined();
  });
});
