import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { MAX_UPLOAD_BYTES, UploadTooLargeError, streamBodyToFile } from './upload-storage';
import { Api, fixture } from './test-helpers';

let emulator: RunningEmulator;
let api: Api;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
  api = Api.of(emulator);
});
afterAll(() => emulator.close());

const MB = 1024 * 1024;
const CLI = resolve(import.meta.dirname, '../cli.ts');
const execFileAsync = promisify(execFile);

/** `total` bytes of a repeating pattern, produced chunk by chunk and hashed on the way. */
function generated(total: number, hash: ReturnType<typeof createHash>): Readable {
  const chunk = Buffer.alloc(MB);
  for (let index = 0; index < chunk.length; index += 1) chunk[index] = (index * 31) % 251;
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += piece.length;
      hash.update(piece);
      this.push(piece);
    },
  });
}

function send(
  url: string,
  options: { key?: string; method?: string; headers?: Record<string, string | number>; body?: Readable },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: options.method ?? 'POST',
      headers: { Authorization: options.key ?? emulator.options.key, ...options.headers },
    });
    req.on('response', resolve);
    req.on('error', reject);
    if (options.body) options.body.pipe(req);
    else req.end();
  });
}

/** Resident set size of a process, in bytes (ps reports KiB; works on Linux and macOS). */
async function rssOf(pid: number): Promise<number> {
  const { stdout } = await execFileAsync('ps', ['-o', 'rss=', '-p', String(pid)]);
  return Number(stdout.trim()) * 1024;
}

async function readText(response: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of response) text += (chunk as Buffer).toString('utf8');
  return text;
}

describe('POST /v2/upload', () => {
  it('streams 300 MB to disk without holding it in memory, and serves it back', async () => {
    // The emulator runs in a process of its own so that its RSS alone is measured.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, '--port', '0', '--key', 'big-upload-key'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          const match = /listening on (\S+)/.exec(chunk.toString('utf8'));
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
      });
      const total = 300 * MB;
      const sentHash = createHash('sha256');
      const baseline = await rssOf(child.pid!);
      let peak = baseline;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, await rssOf(child.pid!));
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      })();
      const response = await send(`${baseUrl}/v2/upload`, {
        key: 'big-upload-key',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: generated(total, sentHash),
      });
      expect(response.statusCode).toBe(200);
      const { upload_url: uploadUrl } = JSON.parse(await readText(response)) as { upload_url: string };
      expect(uploadUrl).toMatch(new RegExp(`^${baseUrl}/v2/upload/[0-9a-f-]{36}$`));

      const download = await send(uploadUrl, { key: 'big-upload-key', method: 'GET' });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-length']).toBe(String(total));
      const receivedHash = createHash('sha256');
      await pipeline(download, receivedHash);
      sampling = false;
      await sampler;
      expect(receivedHash.digest('hex')).toBe(sentHash.digest('hex'));
      expect(peak - baseline).toBeLessThan(64 * MB);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('answers 413 when the declared size is over the 2.2 GB limit', async () => {
    const response = await send(`${emulator.url}/v2/upload`, {
      headers: { 'Content-Length': MAX_UPLOAD_BYTES + 1 },
    });
    expect(response.statusCode).toBe(413);
    expect(JSON.parse(await readText(response))).toEqual({
      error: 'Upload too large: the maximum file size is 2.2 GB',
    });
  });

  it('answers 400 to an empty body', async () => {
    const response = await api.request('POST', '/v2/upload', { bytes: new Uint8Array() });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatch(/empty/);
  });

  it('serves an upload back byte for byte, and 404 for an unknown one', async () => {
    const bytes = fixture('press-statement.wav');
    const url = await api.upload(bytes);
    const response = await fetch(url, { headers: { Authorization: api.key } });
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await api.get('/v2/upload/unknown')).status).toBe(404);
  });
});

describe('streamBodyToFile', () => {
  it('stops past the limit with UploadTooLargeError, leaving the request open for the 413', async () => {
    const path = join(tmpdir(), `verbatim-upload-limit-${process.pid}`);
    let outcome: unknown;
    const server = createServer((req, res) => {
      streamBodyToFile(req, path, 1000)
        .then(
          (size) => (outcome = size),
          (error: unknown) => (outcome = error),
        )
        .finally(() => {
          req.resume();
          res.writeHead(outcome instanceof UploadTooLargeError ? 413 : 200).end();
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const small = await fetch(url, { method: 'POST', body: Buffer.alloc(1000, 7) });
      expect(small.status).toBe(200);
      expect(outcome).toBe(1000);
      expect(readFileSync(path)).toEqual(Buffer.alloc(1000, 7));

      const large = await fetch(url, { method: 'POST', body: Buffer.alloc(5000, 7) });
      expect(large.status).toBe(413);
      expect(outcome).toBeInstanceOf(UploadTooLargeError);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
