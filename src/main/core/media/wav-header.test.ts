import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { wavHeaderPcm16 } from '../../../../test/emulator/speech/wav-encode';
import { inspectWav, wavFile } from '../export/wav-clip';
import { pcm16FormatChunk, pcm16WavHeader, wavHeader, wavHeaderBytes } from './wav-header';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-wav-header-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pcmFormat = fc.record({
  sampleRate: fc.integer({ min: 1, max: 384_000 }),
  channels: fc.integer({ min: 1, max: 8 }),
});

const samples = fc.integer({ min: 0, max: Math.floor((0xffff_ffff - 36) / 2) }).map((n) => n * 2);

describe('the one WAV header', () => {
  it('is, for any rate, channel count and length of PCM16, the header the emulator writes on its own', () => {
    fc.assert(
      // 16-bit sound is whole samples: an even number of bytes, up to what a RIFF size can say.
      fc.property(pcmFormat, samples, (format, dataBytes) => {
        const header = pcm16WavHeader(format, dataBytes);
        expect(header.length).toBe(wavHeaderBytes);
        expect(new Uint8Array(header)).toEqual(wavHeaderPcm16(format.sampleRate, format.channels, dataBytes));
      }),
    );
  });

  it('says the most a RIFF size can past 4 GiB of sound, so a recording longer than six hours is never refused', () => {
    const format = { sampleRate: 48_000, channels: 2 };
    fc.assert(
      fc.property(fc.integer({ min: 0xffff_ffff - 36, max: 2 ** 40 }), (dataBytes) => {
        const header = pcm16WavHeader(format, dataBytes);
        expect(header.readUInt32LE(4)).toBe(Math.min(36 + dataBytes + (dataBytes % 2), 0xffff_ffff));
        expect(header.readUInt32LE(40)).toBe(Math.min(dataBytes, 0xffff_ffff));
      }),
    );
  });

  it('reads back with its fields, and the sound where the header says, for any format chunk and sound', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        pcmFormat,
        fc.integer({ min: 0, max: 8 }),
        fc.uint8Array({ maxLength: 64 }),
        async (format, extraFormatBytes, sound) => {
          // A longer (or odd-sized) format chunk, as an extensible or odd recorder's, is padded too.
          const chunk = new Uint8Array([...pcm16FormatChunk(format), ...new Uint8Array(extraFormatBytes)]);
          const file = wavFile(chunk, sound);
          const header = wavHeader(chunk, sound.length);
          expect(file.subarray(0, header.length)).toEqual(new Uint8Array(header));
          expect(file.length % 2).toBe(0);
          expect(Buffer.from(file).readUInt32LE(4)).toBe(file.length - 8);
          const path = join(dir, `${n++}.wav`);
          writeFileSync(path, file);
          const handle = await open(path, 'r');
          try {
            const inspected = await inspectWav(handle, file.length);
            expect(inspected.ok).toBe(true);
            if (!inspected.ok) return;
            const { layout } = inspected;
            expect(layout.sampleRate).toBe(format.sampleRate);
            expect(layout.channels).toBe(format.channels);
            expect(layout.bitsPerSample).toBe(16);
            expect(layout.blockAlign).toBe(format.channels * 2);
            expect(layout.dataOffset).toBe(header.length);
            expect(layout.frames).toBe(Math.floor(sound.length / (format.channels * 2)));
            expect(file.subarray(layout.dataOffset, layout.dataOffset + sound.length)).toEqual(sound);
          } finally {
            await handle.close();
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
