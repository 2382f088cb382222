/**
 * The one RIFF/WAVE writer: the recorder's crash-safe PCM16 files (recording/crash-safe-wav.ts)
 * and the clips cut from a recording (export/wav-clip.ts) both take their header from here, so
 * the chunk sizes and padding are spelled out once.
 */

/** The sound a recording holds: 16-bit PCM at this rate and channel count. */
export interface PcmFormat {
  sampleRate: number;
  channels: number;
}

const bytesPerSample = 2;

/** The size of a canonical PCM16 header: RIFF, a 16-byte "fmt " chunk, the "data" chunk's head. */
export const wavHeaderBytes = 44;

/** Bytes per frame of 16-bit PCM: one sample of every channel. */
export function pcm16FrameBytes(format: PcmFormat): number {
  return format.channels * bytesPerSample;
}

/** The body of the "fmt " chunk of 16-bit PCM. */
export function pcm16FormatChunk(format: PcmFormat): Uint8Array {
  const blockAlign = pcm16FrameBytes(format);
  const chunk = Buffer.alloc(16);
  chunk.writeUInt16LE(1, 0); // PCM
  chunk.writeUInt16LE(format.channels, 2);
  chunk.writeUInt32LE(format.sampleRate, 4);
  chunk.writeUInt32LE(format.sampleRate * blockAlign, 8);
  chunk.writeUInt16LE(blockAlign, 12);
  chunk.writeUInt16LE(bytesPerSample * 8, 14);
  return new Uint8Array(chunk);
}

/**
 * Everything of a WAV file before its sound: the RIFF head, the "fmt " chunk with `formatChunk`
 * as its body, and the head of a "data" chunk of `dataBytes`. Chunks are padded to an even length,
 * so the RIFF size counts the pad byte after odd-sized sound too (the caller writes that byte).
 */
export function wavHeader(formatChunk: Uint8Array, dataBytes: number): Buffer {
  const fmtPad = formatChunk.length % 2;
  const dataPad = dataBytes % 2;
  const header = Buffer.alloc(12 + 8 + formatChunk.length + fmtPad + 8);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(riffSize(header.length - 8 + dataBytes + dataPad), 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(formatChunk.length, 16);
  header.set(formatChunk, 20);
  const data = 20 + formatChunk.length + fmtPad;
  header.write('data', data, 'latin1');
  header.writeUInt32LE(riffSize(dataBytes), data + 4);
  return header;
}

/**
 * A RIFF size field, which holds 32 bits: past 4 GiB of sound (about six hours of 48 kHz stereo)
 * it says the most it can, as sox and ffmpeg write it, and readers take the sound to the end of
 * the file. A long recording is never refused for its length.
 */
function riffSize(bytes: number): number {
  return Math.min(bytes, 0xffff_ffff);
}

/** The canonical 44-byte header of a PCM16 WAV with `dataBytes` of sound. */
export function pcm16WavHeader(format: PcmFormat, dataBytes: number): Buffer {
  return wavHeader(pcm16FormatChunk(format), dataBytes);
}
