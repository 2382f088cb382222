import type { FileHandle } from 'node:fs/promises';
import { type ByteRange, type ByteRewrite, fillRanges } from '../media/file-range';
import { wavHeader } from '../media/wav-header';

/**
 * Cutting a span out of a WAV recording without decoding it: uncompressed WAV stores its
 * samples as fixed-size frames (one sample per channel), so a span of time is a byte range of
 * the data chunk. The clip keeps the source's own format chunk byte for byte, so its channels,
 * rate and sample size (16-bit, 24-bit, float…) are exactly the recording's.
 */

/** A span of a recording in milliseconds, end excluded: a redacted word's. */
export interface TimeSpan {
  start: number;
  end: number;
}

export interface WavLayout {
  /** The source's "fmt " chunk body, copied into every clip. */
  formatChunk: Uint8Array;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Bytes per frame: one sample of every channel. */
  blockAlign: number;
  /** Where the sample frames start in the file, and how many whole frames there are. */
  dataOffset: number;
  frames: number;
  /** The byte that, repeated, is silence in this format. */
  silentByte: number;
}

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;

/** Why a file cannot be cut as WAV, in words for the journalist; the layout when it can. */
export type WavInspection = { ok: true; layout: WavLayout } | { ok: false; reason: string };

/** The byte range of frames for [startMs, endMs]: from the frame holding the start to the one holding the end. */
export function frameSpan(
  layout: WavLayout,
  startMs: number,
  endMs: number,
): { first: number; count: number } {
  // Floor the start and ceil the end so the clip holds the whole span, never a clipped word.
  const first = Math.min(layout.frames, Math.max(0, Math.floor((startMs * layout.sampleRate) / 1000)));
  const end = Math.min(layout.frames, Math.max(first, Math.ceil((endMs * layout.sampleRate) / 1000)));
  return { first, count: end - first };
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/**
 * Walks the RIFF chunks for "fmt " and "data" with positional reads, so a three-hour
 * recording is never loaded to find its header.
 */
export async function inspectWav(handle: FileHandle, fileSize: number): Promise<WavInspection> {
  const head = await readAt(handle, 0, 12);
  if (
    head.length < 12 ||
    head.toString('latin1', 0, 4) !== 'RIFF' ||
    head.toString('latin1', 8, 12) !== 'WAVE'
  )
    return { ok: false, reason: 'it is not a WAV file' };
  let position = 12;
  let formatChunk: Buffer | undefined;
  while (position + 8 <= fileSize) {
    const chunk = await readAt(handle, position, 8);
    if (chunk.length < 8) break;
    const id = chunk.toString('latin1', 0, 4);
    const size = chunk.readUInt32LE(4);
    const body = position + 8;
    if (id === 'fmt ') {
      formatChunk = await readAt(handle, body, Math.min(size, 1024));
    } else if (id === 'data') {
      if (!formatChunk || formatChunk.length < 16)
        return { ok: false, reason: 'its WAV header has no format before the sound' };
      return layoutFrom(formatChunk, body, Math.min(size, fileSize - body));
    }
    // Chunks are padded to an even length.
    position = body + size + (size % 2);
  }
  return { ok: false, reason: 'its WAV file has no sound data (it may be cut short)' };
}

function layoutFrom(format: Buffer, dataOffset: number, dataBytes: number): WavInspection {
  const tag = format.readUInt16LE(0);
  const channels = format.readUInt16LE(2);
  const sampleRate = format.readUInt32LE(4);
  const blockAlign = format.readUInt16LE(12);
  const bitsPerSample = format.readUInt16LE(14);
  // WAVE_FORMAT_EXTENSIBLE names the real format in the first two bytes of its sub-format GUID.
  const subFormat = tag === EXTENSIBLE && format.length >= 26 ? format.readUInt16LE(24) : tag;
  const float = subFormat === IEEE_FLOAT;
  if (subFormat !== PCM && subFormat !== IEEE_FLOAT)
    return {
      ok: false,
      reason: `it is a compressed WAV (format ${subFormat}); Verbatim cuts only uncompressed WAV`,
    };
  if (channels === 0 || sampleRate === 0 || blockAlign === 0 || bitsPerSample === 0)
    return { ok: false, reason: 'its WAV header is damaged' };
  return {
    ok: true,
    layout: {
      formatChunk: new Uint8Array(format),
      channels,
      sampleRate,
      bitsPerSample,
      blockAlign,
      dataOffset,
      frames: Math.floor(Math.max(0, dataBytes) / blockAlign),
      // 8-bit PCM is unsigned: its silence is the middle value, 128. Every other format's is 0.
      silentByte: !float && bitsPerSample === 8 ? 0x80 : 0,
    },
  };
}

/**
 * The bytes of the file that carry the spans' sound: every frame any span touches, from the one
 * holding its start to the one holding its end (rounded outwards as a clip is, so no edge of a
 * redacted word is heard), in every channel. Sorted and merged, as ByteRewrite wants them.
 */
export function silenceOver(layout: WavLayout, spans: readonly TimeSpan[]): ByteRewrite {
  const frames = spans
    .map((span) => frameSpan(layout, span.start, span.end))
    .filter((span) => span.count > 0)
    .sort((a, b) => a.first - b.first);
  const ranges: ByteRange[] = [];
  for (const { first, count } of frames) {
    const from = layout.dataOffset + first * layout.blockAlign;
    const to = from + count * layout.blockAlign;
    const last = ranges.at(-1);
    if (last && from <= last.to) last.to = Math.max(last.to, to);
    else ranges.push({ from, to });
  }
  return { ranges, fill: layout.silentByte };
}

/** A whole WAV file: RIFF header, the source's format chunk, and the given frames as data. */
export function wavFile(formatChunk: Uint8Array, frames: Uint8Array): Uint8Array {
  const header = wavHeader(formatChunk, frames.length);
  const out = Buffer.alloc(header.length + frames.length + (frames.length % 2));
  out.set(header, 0);
  out.set(frames, header.length);
  return new Uint8Array(out);
}

/**
 * The clip of [startMs, endMs] as a WAV file, read from the open recording, with every span of
 * `silence` (a redacted word's) silent and every other sample as the recording has it.
 */
export async function cutWav(
  handle: FileHandle,
  layout: WavLayout,
  startMs: number,
  endMs: number,
  silence: readonly TimeSpan[] = [],
): Promise<Uint8Array> {
  const { first, count } = frameSpan(layout, startMs, endMs);
  const position = layout.dataOffset + first * layout.blockAlign;
  const frames = await readAt(handle, position, count * layout.blockAlign);
  fillRanges(frames, position, silenceOver(layout, silence));
  return wavFile(layout.formatChunk, frames);
}
