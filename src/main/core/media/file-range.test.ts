import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { type ByteRange, serveFileRange } from './file-range';

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

describe('serving a recording with bytes rewritten (its redacted words silenced)', () => {
  async function bytes(body: Readable | undefined): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of body ?? []) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  it('sends the fill over every rewritten byte of any range a player asks for, and the file elsewhere', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // Files of one read chunk and of several (a read stream hands over 64 KiB at a time).
        fc.integer({ min: 1, max: 200_000 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 70_000 })), { maxLength: 8 }),
        fc.constantFrom(0, 0x80),
        fc.oneof(
          fc.constant(undefined),
          fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `bytes=${Math.min(a, b)}-${Math.max(a, b)}`),
          fc.nat().map((a) => `bytes=${a}-`),
          fc.integer({ min: 1, max: 300_000 }).map((n) => `bytes=-${n}`),
        ),
        async (size, spans, fill, range) => {
          const file = Buffer.alloc(size);
          for (let i = 0; i < size; i++) file[i] = 1 + (i % 97);
          const recording = join(dir, `noisy-${run++}.wav`);
          writeFileSync(recording, file);
          // Sorted, merged ranges, as silenceOver makes them.
          const ranges: ByteRange[] = [];
          for (const [from, length] of spans
            .map(([at, length]) => [at % size, length] as const)
            .sort((a, b) => a[0] - b[0])) {
            const last = ranges.at(-1);
            if (last && from <= last.to) last.to = Math.max(last.to, from + length);
            else ranges.push({ from, to: from + length });
          }
          const expected = Buffer.from(file);
          for (const r of ranges) expected.fill(fill, r.from, Math.min(r.to, size));

          const response = await serveFileRange(recording, range, { ranges, fill });
          if (response.status === 416) return;
          const sent = await bytes(response.body);
          const at = response.headers['Content-Range']?.match(/^bytes (\d+)-(\d+)\//);
          const from = at ? Number(at[1]) : 0;
          const to = at ? Number(at[2]) + 1 : size;
          expect(sent.equals(expected.subarray(from, to))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});
