import { VOICE_SAMPLE_RATE } from './voice-protocol';

/** PCM16 helpers for the voice path: little-endian signed 16-bit samples, mono unless said. */

export const BYTES_PER_SAMPLE = 2;
/** About 50 ms per capture chunk: small enough for quick turn detection, few enough messages. */
export const CHUNK_MS = 50;
export const CHUNK_BYTES = (VOICE_SAMPLE_RATE * CHUNK_MS * BYTES_PER_SAMPLE) / 1000;

export function bytesForMs(ms: number, sampleRate = VOICE_SAMPLE_RATE): number {
  return Math.round((sampleRate * ms) / 1000) * BYTES_PER_SAMPLE;
}

export function msForBytes(bytes: number, sampleRate = VOICE_SAMPLE_RATE): number {
  return (bytes / BYTES_PER_SAMPLE / sampleRate) * 1000;
}

/**
 * Converts a stream of PCM16 at `fromRate` with `channels` interleaved channels to mono PCM16 at
 * 24 kHz (linear interpolation: speech sits far below either Nyquist limit, and the agent's
 * recognizer does not need better). Stateful across chunks, so chunk borders do not click.
 */
export class Resampler {
  private readonly step: number;
  /** Position of the next output sample, in input samples, counted from `previous`. */
  private position = 0;
  /** The last input sample of the previous chunk (mono), for interpolating across the border. */
  private previous: number | undefined;
  private remainder = Buffer.alloc(0);

  constructor(
    private readonly fromRate: number,
    private readonly channels = 1,
    private readonly toRate = VOICE_SAMPLE_RATE,
  ) {
    if (!(fromRate > 0) || !(toRate > 0) || !Number.isInteger(channels) || channels < 1) {
      throw new RangeError('Resampler needs positive rates and a whole number of channels');
    }
    this.step = fromRate / toRate;
  }

  get passthrough(): boolean {
    return this.fromRate === this.toRate && this.channels === 1;
  }

  push(chunk: Buffer): Buffer {
    const frameBytes = BYTES_PER_SAMPLE * this.channels;
    const data = this.remainder.length > 0 ? Buffer.concat([this.remainder, chunk]) : chunk;
    const frames = Math.floor(data.length / frameBytes);
    this.remainder = Buffer.from(data.subarray(frames * frameBytes));
    if (this.passthrough) return Buffer.from(data.subarray(0, frames * frameBytes));
    const mono = new Float64Array(frames);
    for (let frame = 0; frame < frames; frame++) {
      let sum = 0;
      for (let channel = 0; channel < this.channels; channel++) {
        sum += data.readInt16LE(frame * frameBytes + channel * BYTES_PER_SAMPLE);
      }
      mono[frame] = sum / this.channels;
    }
    // The previous chunk's last sample leads this one, so output positions run across the border.
    const combined = this.previous === undefined ? mono : Float64Array.from([this.previous, ...mono]);
    const out: number[] = [];
    let position = this.position;
    while (Math.floor(position) + 1 <= combined.length - 1) {
      const left = Math.floor(position);
      const fraction = position - left;
      out.push(combined[left]! * (1 - fraction) + combined[left + 1]! * fraction);
      position += this.step;
    }
    if (combined.length > 0) {
      this.previous = combined[combined.length - 1];
      this.position = position - (combined.length - 1);
    }
    const result = Buffer.alloc(out.length * BYTES_PER_SAMPLE);
    out.forEach((value, index) =>
      result.writeInt16LE(Math.max(-32_768, Math.min(32_767, Math.round(value))), index * BYTES_PER_SAMPLE),
    );
    return result;
  }
}

/** Cuts a stream of PCM into chunks of exactly `chunkBytes` (the last partial one waits for more). */
export class Chunker {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly chunkBytes = CHUNK_BYTES) {}

  push(data: Buffer): Buffer[] {
    this.pending.push(data);
    this.pendingBytes += data.length;
    if (this.pendingBytes < this.chunkBytes) return [];
    const all = Buffer.concat(this.pending, this.pendingBytes);
    const chunks: Buffer[] = [];
    let offset = 0;
    for (; offset + this.chunkBytes <= all.length; offset += this.chunkBytes) {
      chunks.push(all.subarray(offset, offset + this.chunkBytes));
    }
    const rest = all.subarray(offset);
    this.pending = rest.length > 0 ? [Buffer.from(rest)] : [];
    this.pendingBytes = rest.length;
    return chunks;
  }

  /** What is left, for the end of a stream. */
  flush(): Buffer | undefined {
    if (this.pendingBytes === 0) return undefined;
    const rest = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return rest;
  }
}

export interface Level {
  /** Root mean square, 0..1 of full scale. */
  rms: number;
  /** Largest absolute sample, 0..1 of full scale. */
  peak: number;
}

/** The level meter's reading of one PCM16 chunk. */
export function measureLevel(pcm: Buffer): Level {
  const samples = Math.floor(pcm.length / BYTES_PER_SAMPLE);
  if (samples === 0) return { rms: 0, peak: 0 };
  let sum = 0;
  let peak = 0;
  for (let i = 0; i < samples; i++) {
    const sample = pcm.readInt16LE(i * BYTES_PER_SAMPLE) / 32_768;
    sum += sample * sample;
    peak = Math.max(peak, Math.abs(sample));
  }
  return { rms: Math.sqrt(sum / samples), peak };
}
