import { createHash } from 'node:crypto';

/**
 * Audio of the voice agent: 16-bit little-endian PCM, mono, 24 kHz, in both directions
 * (AssemblyAI's `audio/pcm`), carried as base64 inside JSON messages.
 */

export const SAMPLE_RATE = 24_000;
export const BYTES_PER_SAMPLE = 2;
const FULL_SCALE = 32_768;

/** Why a base64 audio chunk is refused, or its PCM bytes. */
export function decodePcm16(base64: string): { pcm: Buffer } | { error: string } {
  // Buffer.from(…, 'base64') silently skips bad characters, so check the alphabet first.
  if (base64.length === 0 || base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) {
    return { error: 'audio is not valid base64' };
  }
  const pcm = Buffer.from(base64, 'base64');
  if (pcm.length % BYTES_PER_SAMPLE !== 0) {
    return { error: `audio has ${pcm.length} bytes; PCM16 needs an even number of bytes` };
  }
  return { pcm };
}

/** Root mean square of `samples` samples starting at byte `offset`, as a fraction of full scale. */
export function frameRms(pcm: Buffer, offset: number, samples: number): number {
  let sum = 0;
  for (let i = 0; i < samples; i++) {
    const sample = pcm.readInt16LE(offset + i * BYTES_PER_SAMPLE) / FULL_SCALE;
    sum += sample * sample;
  }
  return Math.sqrt(sum / samples);
}

/** Each character of a reply is spoken for one audio chunk: 50 ms, 1200 samples. */
export const CHARACTER_MS = 50;
const SAMPLES_PER_CHARACTER = (SAMPLE_RATE * CHARACTER_MS) / 1000;
/** Peak of the synthesized voice at its native level (volume null), as a fraction of full scale. */
const NATIVE_PEAK = 0.5;
/** 5 ms fade in and out so consecutive characters do not click. */
const FADE_SAMPLES = 120;

/** The voice's fundamental frequency: a deterministic 100..219 Hz per voice name. */
function voicePitch(voice: string): number {
  return 100 + (createHash('sha256').update(voice).digest().readUInt16BE(0) % 120);
}

/**
 * A deterministic stand-in for speech: letters and digits are a voiced tone (fundamental plus
 * two harmonics, pitch varying with the character), everything else is a pause. `volume` is
 * AssemblyAI's 0..100 (null: native level, the same as 100).
 */
export function synthesizeCharacter(character: string, voice: string, volume: number | null): Buffer {
  const pcm = Buffer.alloc(SAMPLES_PER_CHARACTER * BYTES_PER_SAMPLE);
  if (!/[\p{L}\p{N}]/u.test(character)) return pcm;
  const gain = volume === null ? 1 : volume / 100;
  const frequency = voicePitch(voice) + ((character.codePointAt(0) ?? 0) % 12) * 12;
  for (let i = 0; i < SAMPLES_PER_CHARACTER; i++) {
    const phase = (2 * Math.PI * frequency * i) / SAMPLE_RATE;
    const wave = (Math.sin(phase) + 0.5 * Math.sin(2 * phase) + 0.25 * Math.sin(3 * phase)) / 1.75;
    const fade = Math.min(1, i / FADE_SAMPLES, (SAMPLES_PER_CHARACTER - 1 - i) / FADE_SAMPLES);
    pcm.writeInt16LE(Math.round(wave * fade * NATIVE_PEAK * gain * (FULL_SCALE - 1)), i * BYTES_PER_SAMPLE);
  }
  return pcm;
}
