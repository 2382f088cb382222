import { createHash } from 'node:crypto';

/** Deterministic randomness: everything "random" in a transcript is keyed by the audio's hash. */

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A small fast generator (sfc32) seeded from sha256(seed); returns numbers in [0, 1). */
export function seededRandom(seed: string): () => number {
  const digest = createHash('sha256').update(seed).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** A number in [low, high) that depends only on `seed`. */
export function seededNumber(seed: string, low: number, high: number): number {
  return low + seededRandom(seed)() * (high - low);
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
