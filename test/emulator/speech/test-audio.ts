import { readFileSync } from 'node:fs';
import { fixtureManifest, type Fixture } from './fixture-manifest';
import { sha256Hex } from './seeded-random';

/** Test support: the committed fixture recordings, and WAV files of any sample format built in memory. */

export type FixtureName =
  'interview-ferry-contract' | 'press-statement' | 'stereo-call' | 'spanish-clip' | 'silence';

export function readFixture(name: FixtureName): { bytes: Uint8Array; fixture: Fixture } {
  const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/${name}.wav`, import.meta.url)));
  const fixture = fixtureManifest()[sha256Hex(bytes)];
  if (fixture === undefined) throw new Error(`${name}.wav is not in the manifest (regenerate the fixtures)`);
  return { bytes, fixture };
}

export type SampleEncoding = 'uint8' | 'int16' | 'int24' | 'int32' | 'float32';

const BYTES_PER_SAMPLE: Record<SampleEncoding, number> = {
  uint8: 1,
  int16: 2,
  int24: 3,
  int32: 4,
  float32: 4,
};

/**
 * A WAV file whose channels hold the given samples (floats in -1..1), in the given encoding; with
 * `extensible` the fmt chunk is WAVE_FORMAT_EXTENSIBLE, and `extraChunk` puts a LIST chunk before the data.
 */
export function buildWav(
  channels: readonly number[][],
  sampleRate: number,
  encoding: SampleEncoding,
  options: { extensible?: boolean; extraChunk?: boolean } = {},
): Uint8Array {
  const bytesPerSample = BYTES_PER_SAMPLE[encoding];
  const channelCount = channels.length;
  const frameCount = channels[0]?.length ?? 0;
  const formatTag = encoding === 'float32' ? 3 : 1;
  const fmtSize = options.extensible ? 40 : 16;
  const list = options.extraChunk ? [...'LIST', 4, 0, 0, 0, ...'INFO'] : [];
  const dataSize = frameCount * channelCount * bytesPerSample;
  const total = 12 + 8 + fmtSize + list.length + 8 + dataSize;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  let at = 0;
  const text = (value: string): void => {
    for (const char of value) bytes[at++] = char.charCodeAt(0);
  };
  const u16 = (value: number): void => {
    view.setUint16(at, value, true);
    at += 2;
  };
  const u32 = (value: number): void => {
    view.setUint32(at, value, true);
    at += 4;
  };
  text('RIFF');
  u32(total - 8);
  text('WAVE');
  text('fmt ');
  u32(fmtSize);
  u16(options.extensible ? 0xfffe : formatTag);
  u16(channelCount);
  u32(sampleRate);
  u32(sampleRate * channelCount * bytesPerSample);
  u16(channelCount * bytesPerSample);
  u16(bytesPerSample * 8);
  if (options.extensible) {
    u16(22);
    u16(bytesPerSample * 8);
    u32(channelCount === 2 ? 3 : 4);
    // SubFormat GUID: the format tag, then the fixed KSDATAFORMAT suffix.
    u16(formatTag);
    for (const byte of [0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71]) bytes[at++] = byte;
  }
  for (const item of list) {
    if (typeof item === 'string') text(item);
    else bytes[at++] = item;
  }
  text('data');
  u32(dataSize);
  for (let frame = 0; frame < frameCount; frame++) {
    for (const samples of channels) {
      const value = samples[frame] ?? 0;
      switch (encoding) {
        case 'uint8':
          view.setUint8(at, Math.round(value * 127) + 128);
          break;
        case 'int16':
          view.setInt16(at, Math.round(value * 32767), true);
          break;
        case 'int24': {
          const scaled = Math.round(value * 8388607);
          view.setUint8(at, scaled & 0xff);
          view.setUint8(at + 1, (scaled >> 8) & 0xff);
          view.setInt8(at + 2, scaled >> 16);
          break;
        }
        case 'int32':
          view.setInt32(at, Math.round(value * 2147483647), true);
          break;
        case 'float32':
          view.setFloat32(at, value, true);
          break;
      }
      at += bytesPerSample;
    }
  }
  return bytes;
}

/** A sine tone: bursts of `toneMs` separated by `pauseMs` of silence, after `leadMs` of silence. */
export function toneBursts(
  sampleRate: number,
  leadMs: number,
  bursts: { toneMs: number; pauseMs: number }[],
): number[] {
  const samples: number[] = new Array<number>(Math.round((leadMs * sampleRate) / 1000)).fill(0);
  for (const { toneMs, pauseMs } of bursts) {
    const toneLength = Math.round((toneMs * sampleRate) / 1000);
    for (let i = 0; i < toneLength; i++) samples.push(0.4 * Math.sin((2 * Math.PI * 220 * i) / sampleRate));
    for (let i = 0; i < Math.round((pauseMs * sampleRate) / 1000); i++) samples.push(0);
  }
  return samples;
}
