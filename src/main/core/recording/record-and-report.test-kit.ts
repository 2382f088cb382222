import { CrashSafeWavWriter } from './crash-safe-wav';

/**
 * A recorder for the kill test (crash-safe-wav.test.ts), run as its own process: it records a
 * known PCM pattern (48 kHz mono, 20 ms chunks, ten times faster than real time) into the WAV
 * named by its argument and prints `written <bytes>` each time the OS has a chunk, until killed.
 */
export function patternChunk(firstFrame: number, frames: number): Buffer {
  const chunk = Buffer.alloc(frames * 2);
  for (let i = 0; i < frames; i++) chunk.writeInt16LE(((firstFrame + i) * 7) & 0x7fff, i * 2);
  return chunk;
}

export const chunkFrames = 960;

async function main(path: string): Promise<void> {
  const writer = await CrashSafeWavWriter.create(path, { sampleRate: 48_000, channels: 1 });
  for (let frame = 0; ; frame += chunkFrames) {
    await writer.append(patternChunk(frame, chunkFrames));
    process.stdout.write(`written ${writer.bytes}\n`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

if (process.argv[2]) void main(process.argv[2]);
