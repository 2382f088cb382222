import { describe, expect, it } from 'vitest';
import { tone } from '../../../../test/emulator/voice/voice-test-client';
import { Chunker, CHUNK_BYTES, measureLevel, Resampler } from './pcm';

function samples(pcm: Buffer): number[] {
  return Array.from({ length: pcm.length / 2 }, (_, i) => pcm.readInt16LE(i * 2));
}

function pcmOf(values: number[]): Buffer {
  const pcm = Buffer.alloc(values.length * 2);
  values.forEach((value, i) => pcm.writeInt16LE(value, i * 2));
  return pcm;
}

describe('Resampler', () => {
  it('passes 24 kHz mono through untouched', () => {
    const input = tone(20);
    expect(new Resampler(24_000).push(input)).toEqual(input);
  });

  it('turns 48 kHz stereo into 24 kHz mono: half the samples, channels averaged', () => {
    const frames = 480;
    const stereo = Buffer.alloc(frames * 4);
    for (let i = 0; i < frames; i++) {
      stereo.writeInt16LE(1000, i * 4);
      stereo.writeInt16LE(3000, i * 4 + 2);
    }
    const out = samples(new Resampler(48_000, 2).push(stereo));
    expect(out).toHaveLength(240);
    expect(new Set(out)).toEqual(new Set([2000]));
  });

  it('upsamples 16 kHz by interpolating, and gives the same result in chunks as in one piece', () => {
    const ramp = pcmOf(Array.from({ length: 160 }, (_, i) => i * 100));
    const whole = samples(new Resampler(16_000).push(ramp));
    expect(whole.length).toBeGreaterThanOrEqual(239);
    expect(whole.length).toBeLessThanOrEqual(240);
    // A ramp stays a ramp: every step is 100 * 16/24.
    expect(whole[3]! - whole[2]!).toBeCloseTo(66.7, 0);
    const chunked = new Resampler(16_000);
    const pieces = [ramp.subarray(0, 50), ramp.subarray(50, 51), ramp.subarray(51, 200), ramp.subarray(200)];
    expect(pieces.flatMap((piece) => samples(chunked.push(piece)))).toEqual(whole);
  });

  it('keeps an odd byte for the next chunk instead of splitting a sample', () => {
    const resampler = new Resampler(24_000);
    const pcm = pcmOf([1, 2, 3]);
    expect(samples(resampler.push(pcm.subarray(0, 3)))).toEqual([1]);
    expect(samples(resampler.push(pcm.subarray(3)))).toEqual([2, 3]);
  });

  it('refuses impossible rates', () => {
    expect(() => new Resampler(0)).toThrow(RangeError);
    expect(() => new Resampler(44_100, 0)).toThrow(RangeError);
  });
});

describe('Chunker', () => {
  it('cuts 50 ms chunks out of any pieces and keeps the rest', () => {
    const chunker = new Chunker();
    expect(chunker.push(Buffer.alloc(1000))).toEqual([]);
    const chunks = chunker.push(Buffer.alloc(CHUNK_BYTES * 2));
    expect(chunks.map((chunk) => chunk.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES]);
    expect(chunker.flush()?.length).toBe(1000);
    expect(chunker.flush()).toBeUndefined();
    expect(CHUNK_BYTES).toBe(2400);
  });
});

describe('measureLevel', () => {
  it('reads silence as zero and a full-scale square wave as one', () => {
    expect(measureLevel(Buffer.alloc(100))).toEqual({ rms: 0, peak: 0 });
    const square = pcmOf([32_767, -32_768, 32_767, -32_768]);
    const level = measureLevel(square);
    expect(level.peak).toBe(1);
    expect(level.rms).toBeCloseTo(1, 3);
  });

  it('reads a sine of amplitude 0.3 as RMS 0.3/√2 and peak 0.3', () => {
    const level = measureLevel(tone(100, 0.3));
    expect(level.rms).toBeCloseTo(0.3 / Math.SQRT2, 2);
    expect(level.peak).toBeCloseTo(0.3, 2);
    expect(measureLevel(Buffer.alloc(0))).toEqual({ rms: 0, peak: 0 });
  });
});
