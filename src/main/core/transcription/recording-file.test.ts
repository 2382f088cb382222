import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as fsPromises from 'node:fs/promises';
import { inspectRecording, uploadSource, type UploadSource } from './recording-file';
import { wavHeaderPcm16 } from '../../../../test/emulator/speech/wav-encode';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-recording-'));

const wavHeader = (dataBytes: number): Buffer => Buffer.from(wavHeaderPcm16(16_000, 1, dataBytes));

function file(name: string, contents: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, contents);
  return path;
}

async function problem(path: string): Promise<{ code: string; message: string }> {
  try {
    await inspectRecording(path);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected the recording to be refused');
}

describe('checking a recording before upload', () => {
  it('accepts a WAV and knows its duration', async () => {
    const path = file('interview.wav', Buffer.concat([wavHeader(32_000 * 3), Buffer.alloc(32_000 * 3)]));
    expect(await inspectRecording(path)).toMatchObject({
      name: 'interview.wav',
      format: 'wav',
      estimatedDurationMs: 3000,
    });
  });

  it.each([
    ['mp3 with ID3', Buffer.concat([Buffer.from('ID3'), Buffer.alloc(100)]), 'mp3'],
    ['bare mp3 frames', Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(100)]), 'mp3'],
    ['aac', Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80]), Buffer.alloc(100)]), 'aac'],
    ['ogg/opus', Buffer.concat([Buffer.from('OggS'), Buffer.alloc(100)]), 'ogg'],
    ['flac', Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(100)]), 'flac'],
    [
      'm4a/mp4',
      Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A '), Buffer.alloc(100)]),
      'mp4',
    ],
    ['webm', Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(100)]), 'webm'],
    [
      'aiff',
      Buffer.concat([Buffer.from('FORM'), Buffer.alloc(4), Buffer.from('AIFF'), Buffer.alloc(100)]),
      'aiff',
    ],
  ])('recognises %s', async (_name, contents, format) => {
    expect((await inspectRecording(file(`x-${format}-${contents.length}`, contents))).format).toBe(format);
  });

  it('refuses a missing file, a folder and an empty file, in plain words', async () => {
    expect(await problem(join(dir, 'gone.mp3'))).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('was not found') as string,
    });
    mkdirSync(join(dir, 'folder.wav'));
    expect((await problem(join(dir, 'folder.wav'))).message).toContain('folder');
    expect((await problem(file('empty.wav', ''))).message).toContain('empty');
  });

  it('refuses a file over the 2.2 GB limit without reading it', async () => {
    const path = file('huge.wav', wavHeader(0));
    truncateSync(path, 2.3e9); // sparse: no disk is used
    expect((await problem(path)).message).toMatch(/2\.3 GB.*2\.2 GB/);
  });

  it('refuses what is not audio or video', async () => {
    expect(await problem(file('notes.mp3', 'Dear editor, here are my notes'))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('does not look like an audio or video file') as string,
    });
    expect((await problem(file('photo.wav', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])))).code).toBe(
      'invalid_input',
    );
  });

  it('explains a file it is not allowed to read', async () => {
    vi.resetModules();
    vi.doMock('node:fs/promises', async (original) => ({
      ...(await original<typeof fsPromises>()),
      stat: () => Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES' })),
    }));
    const { inspectRecording: inspect } = await import('./recording-file');
    await expect(inspect('/private/interview.wav')).rejects.toThrow('not allowed to read "interview.wav"');
    vi.doUnmock('node:fs/promises');
  });
});

/** Collects what a source writes; chunks are copied, since their buffers are reused. */
async function drain(source: UploadSource, slowly = false): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await source.writeTo(async (chunk) => {
    chunks.push(Buffer.from(chunk));
    if (slowly) await new Promise((resolve) => setTimeout(resolve, 1));
  });
  return Buffer.concat(chunks);
}

describe('the upload source', () => {
  it('hands over the whole file in order, reusing a few buffers, and reports progress', async () => {
    const data = Buffer.alloc(100_000);
    for (let i = 0; i < data.length; i++) data[i] = i % 251;
    const path = file('progress.wav', Buffer.concat([wavHeader(data.length), data]));
    const info = await inspectRecording(path);
    const progress: number[] = [];
    const body = await drain(
      uploadSource(info, { chunkBytes: 4096, onProgress: (sent) => progress.push(sent) }),
      true,
    );
    expect(body.equals(readFileSync(path))).toBe(true);
    expect(progress.length).toBeGreaterThan(5);
    expect(progress.at(-1)).toBe(info.size);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('stops with a cancelled error when the user cancels', async () => {
    const info = await inspectRecording(
      file('cancel.wav', Buffer.concat([wavHeader(200_000), Buffer.alloc(200_000)])),
    );
    const controller = new AbortController();
    let chunks = 0;
    const sending = uploadSource(info, { chunkBytes: 1024, signal: controller.signal }).writeTo(async () => {
      if (++chunks === 3) controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 2));
    });
    await expect(sending).rejects.toMatchObject({ code: 'cancelled' });
    expect(chunks).toBeLessThan(10);
  });

  it('errors out when the network stops taking bytes', async () => {
    const info = await inspectRecording(
      file('stall.wav', Buffer.concat([wavHeader(200_000), Buffer.alloc(200_000)])),
    );
    // The first chunks are taken, then the connection stops taking data.
    let taken = 0;
    const sending = uploadSource(info, { chunkBytes: 1024, stallMs: 50 }).writeTo(() =>
      ++taken < 3 ? Promise.resolve() : new Promise<void>(() => undefined),
    );
    await expect(sending).rejects.toMatchObject({ code: 'timeout' });
  });

  it('says so when the file gets shorter while it is being sent', async () => {
    const path = file('shrinking.wav', Buffer.concat([wavHeader(50_000), Buffer.alloc(50_000)]));
    const info = await inspectRecording(path);
    const sending = uploadSource(info, { chunkBytes: 1024 }).writeTo(async () => {
      truncateSync(path, 2048);
      await Promise.resolve();
    });
    await expect(sending).rejects.toMatchObject({ code: 'storage' });
  });
});
