import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { wavHeaderPcm16 } from '../test/emulator/speech/wav-encode';
import { startEmulatorProcess } from './emulator-process';
import { uploadWithVerbatim } from './upload';

describe("the upload benchmark's memory figure", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it("counts the uploading child's own memory, not the larger process that spawned it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-upload-memory-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const size = 200 * 1024 * 1024;
    const file = join(dir, 'interview.wav');
    const fd = openSync(file, 'w');
    writeSync(fd, wavHeaderPcm16(16_000, 1, size - 44));
    ftruncateSync(fd, size);
    closeSync(fd);
    const emulator = await startEmulatorProcess({ dataDir: join(dir, 'emulator') });
    cleanups.push(emulator.stop);
    // The bench runs every suite in one process, which is this large by the time it uploads.
    const heldByTheParent = Buffer.alloc(256 * 1024 * 1024, 1);

    const measured = await uploadWithVerbatim(file, emulator.url);

    expect(heldByTheParent.length).toBe(256 * 1024 * 1024);
    // The upload reads through a ring of three 4 MB buffers: 200 MB sent, a few MB grown.
    expect(measured.growth).toBeLessThan(48e6);
    expect(measured.peak).toBeLessThan(256 * 1024 * 1024);
  }, 60_000);
});
