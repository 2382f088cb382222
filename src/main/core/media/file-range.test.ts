import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { serveFileRange } from './file-range';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-range-'));
const path = join(dir, 'interview.mp3');
writeFileSync(path, Buffer.from('0123456789'));

async function text(body: Readable | undefined): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body ?? []) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('serving a recording with ranges', () => {
  it('ignores a range in a unit it does not know and serves the whole file', async () => {
    const response = await serveFileRange(path, 'lines=1-2');
    expect(response.status).toBe(200);
    expect(await text(response.body)).toBe('0123456789');
  });

  it('serves the whole file with its type and says it accepts ranges', async () => {
    const response = await serveFileRange(path, undefined);
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'Content-Type': 'audio/mpeg',
      'Accept-Ranges': 'bytes',
      'Content-Length': '10',
    });
    expect(await text(response.body)).toBe('0123456789');
  });

  it.each([
    ['bytes=2-5', '2345', 'bytes 2-5/10'],
    ['bytes=7-', '789', 'bytes 7-9/10'],
    ['bytes=-3', '789', 'bytes 7-9/10'],
    ['bytes=8-100', '89', 'bytes 8-9/10'],
    ['bytes=0-1, 4-5', '01', 'bytes 0-1/10'],
    ['bytes= 3-4 ,7-8', '34', 'bytes 3-4/10'],
  ])('serves %s', async (range, body, contentRange) => {
    const response = await serveFileRange(path, range);
    expect(response.status).toBe(206);
    expect(response.headers['Content-Range']).toBe(contentRange);
    expect(await text(response.body)).toBe(body);
  });

  it('refuses a range outside the file, and reports a missing file', async () => {
    expect((await serveFileRange(path, 'bytes=20-30')).status).toBe(416);
    expect((await serveFileRange(path, 'bytes=abc')).status).toBe(416);
    expect((await serveFileRange(join(dir, 'moved.mp3'), undefined)).status).toBe(404);
    expect((await serveFileRange(dir, undefined)).status).toBe(404);
  });
});
