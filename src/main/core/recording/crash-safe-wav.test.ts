import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inspectWav } from '../export/wav-clip';
import { startTypeScriptProcess } from '../../cli/cli-process.test-kit';
import { pcm16WavHeader, wavHeaderBytes } from '../media/wav-header';
import { FakeClock } from '../../base/fake-clock.test-kit';
import { CrashSafeWavWriter, repairWav } from './crash-safe-wav';
import { chunkFrames, patternChunk } from './record-and-report.test-kit';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-recording-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function decodes(path: string) {
  const handle = await open(path, 'r');
  try {
    return await inspectWav(handle, statSync(path).size);
  } finally {
    await handle.close();
  }
}

describe('a crash-safe recording', () => {
  it('writes sound as it arrives and brings the header up to date on every tick and at the end', async () => {
    const path = join(dir, 'ticks.wav');
    const clock = new FakeClock();
    const writer = await CrashSafeWavWriter.create(path, { sampleRate: 16_000, channels: 2 }, { clock });
    await writer.append(patternChunk(0, 800));
    // Before a tick the header still says "no sound", but the sound is in the file.
    expect(readFileSync(path).readUInt32LE(40)).toBe(0);
    expect(statSync(path).size).toBe(wavHeaderBytes + 1600);
    await clock.advance(1000);
    await writer.append(patternChunk(800, 801)); // 1,602 bytes: not whole stereo frames
    expect(readFileSync(path).readUInt32LE(40)).toBe(1600);
    // The half frame at the end is cut: the file holds exactly what its header says.
    expect(await writer.close()).toBe(3200);
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(wavHeaderBytes + 3200);
    expect(bytes.subarray(0, wavHeaderBytes)).toEqual(
      pcm16WavHeader({ sampleRate: 16_000, channels: 2 }, 3200),
    );
    const inspected = await decodes(path);
    expect(inspected).toMatchObject({ ok: true, layout: { channels: 2, sampleRate: 16_000, frames: 800 } });
    await expect(writer.append(patternChunk(0, 1))).rejects.toThrow('This recording has stopped.');
  });

  it('never replaces a file, and refuses a format it cannot record', async () => {
    const path = join(dir, 'taken.wav');
    writeFileSync(path, 'the journalist’s own file');
    await expect(CrashSafeWavWriter.create(path, { sampleRate: 48_000, channels: 1 })).rejects.toThrow(
      'is there already; a recording never replaces a file.',
    );
    expect(readFileSync(path, 'utf8')).toBe('the journalist’s own file');
    await expect(
      CrashSafeWavWriter.create(join(dir, 'x.wav'), { sampleRate: 48_000, channels: 3 }),
    ).rejects.toThrow('A recording has one channel or two.');
    await expect(repairWav(path)).rejects.toThrow(
      'is not a recording Verbatim started; it was left as it is.',
    );
    expect(readFileSync(path, 'utf8')).toBe('the journalist’s own file');
  });

  it('survives SIGKILL at any moment: the next start repairs it with every chunk the OS had', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const path = join(dir, `killed-${attempt}.wav`);
      const child = startTypeScriptProcess(
        resolve(import.meta.dirname, 'record-and-report.test-kit.ts'),
        [path],
        {},
      );
      let reported = 0;
      let lines = '';
      const started = new Promise<void>((resolveStart) => {
        child.child.stdout.on('data', (data: Buffer) => {
          lines += data.toString();
          const matches = [...lines.matchAll(/written (\d+)\n/g)];
          const last = matches[matches.length - 1];
          if (last) reported = Number(last[1]);
          if (reported > 0) resolveStart();
        });
      });
      await started;
      // Once recording, somewhere between a few chunks and over a second (a header refresh) later.
      const waitFor = 20 + Math.floor(Math.random() * 1500);
      await new Promise((resolveWait) => setTimeout(resolveWait, waitFor));
      child.child.kill('SIGKILL');
      await child.finished;

      const repaired = await repairWav(path);
      // Everything the OS was handed is kept: at least what was reported, at most one chunk more.
      expect(repaired.dataBytes).toBeGreaterThanOrEqual(reported);
      expect(repaired.dataBytes - reported).toBeLessThanOrEqual(chunkFrames * 2);
      expect((await decodes(path)).ok).toBe(true);
      const sound = readFileSync(path).subarray(wavHeaderBytes);
      expect(sound.length).toBe(repaired.dataBytes);
      expect(sound.equals(patternChunk(0, sound.length / 2))).toBe(true);
      // A repaired file needs no second repair.
      expect((await repairWav(path)).repaired).toBe(false);
    }
  }, 60_000);
});
