import { describe, expect, it } from 'vitest';
import { buildWav, type SampleEncoding } from './test-audio';
import { decodeAudio, UnreadableAudioError } from './wav-decode';
import { encodeWavPcm16 } from './wav-encode';

const LEFT = [0, 0.5, -0.5, 0.25, -1, 1];
const RIGHT = [0.1, -0.1, 0.75, -0.75, 0, 0.3];

/** Each encoding keeps this much precision once brought to 16 bits. */
const TOLERANCE: Record<SampleEncoding, number> = { uint8: 300, int16: 1, int24: 1, int32: 1, float32: 1 };

describe('decodeAudio', () => {
  for (const encoding of ['uint8', 'int16', 'int24', 'int32', 'float32'] as const) {
    for (const extensible of [false, true]) {
      it(`decodes ${encoding} stereo${extensible ? ' (WAVE_FORMAT_EXTENSIBLE)' : ''}`, () => {
        const audio = decodeAudio(buildWav([LEFT, RIGHT], 22_050, encoding, { extensible }));
        expect(audio.sampleRate).toBe(22_050);
        expect(audio.channels).toHaveLength(2);
        expect(audio.durationMs).toBeCloseTo((LEFT.length / 22_050) * 1000, 6);
        [LEFT, RIGHT].forEach((expected, channel) => {
          const decoded = Array.from(audio.channels[channel] ?? []);
          expect(decoded).toHaveLength(expected.length);
          decoded.forEach((sample, index) => {
            expect(Math.abs(sample - (expected[index] ?? 0) * 32767)).toBeLessThanOrEqual(
              TOLERANCE[encoding],
            );
          });
        });
      });
    }
  }

  it('reads any channel count and sample rate, skipping chunks it does not know', () => {
    const channels = [
      [0.1, 0.2],
      [0.3, 0.4],
      [-0.5, -0.6],
    ];
    const audio = decodeAudio(buildWav(channels, 8000, 'int16', { extraChunk: true }));
    expect(audio.sampleRate).toBe(8000);
    expect(audio.channels.map((samples) => Array.from(samples))).toEqual(
      channels.map((samples) => samples.map((value) => Math.round(value * 32767))),
    );
  });

  it('clamps float samples outside -1..1', () => {
    const audio = decodeAudio(buildWav([[2, -3]], 16_000, 'float32'));
    expect(Array.from(audio.channels[0] ?? [])).toEqual([32767, -32767]);
  });

  it('reads a data chunk whose size was left unset by a streaming writer', () => {
    const bytes = encodeWavPcm16(16_000, [new Int16Array([1, 2, 3, 4])]);
    new DataView(bytes.buffer).setUint32(40, 0xffffffff, true);
    expect(Array.from(decodeAudio(bytes).channels[0] ?? [])).toEqual([1, 2, 3, 4]);
  });

  it('round-trips what encodeWavPcm16 writes', () => {
    const left = new Int16Array([0, 1000, -1000, 32767, -32768]);
    const right = new Int16Array([5, 6, 7, 8, 9]);
    const audio = decodeAudio(encodeWavPcm16(44_100, [left, right]));
    expect(audio.channels).toEqual([left, right]);
  });

  const garbage: [string, Uint8Array, RegExp][] = [
    ['an empty file', new Uint8Array(0), /too short/],
    [
      'headerless PCM',
      new Uint8Array(Array.from({ length: 3200 }, (_, index) => (index * 37) % 256)),
      /not a RIFF\/WAVE/,
    ],
    [
      'a text file',
      new TextEncoder().encode('this is definitely not audio, just some words'),
      /not a RIFF\/WAVE/,
    ],
    ['a WAV without data', buildWav([[]], 16_000, 'int16'), /no audio samples/],
    ['a truncated header', buildWav([LEFT], 16_000, 'int16').subarray(0, 30), /"fmt " chunk is|no "fmt "/],
  ];
  for (const [what, bytes, message] of garbage) {
    it(`rejects ${what} with UnreadableAudioError`, () => {
      expect(() => decodeAudio(bytes)).toThrow(UnreadableAudioError);
      expect(() => decodeAudio(bytes)).toThrow(message);
    });
  }

  it('rejects compressed WAV formats it cannot read', () => {
    const bytes = buildWav([LEFT], 16_000, 'int16');
    new DataView(bytes.buffer).setUint16(20, 7, true); // mu-law
    expect(() => decodeAudio(bytes)).toThrow(/format tag 0x7 is not supported/);
  });
});
