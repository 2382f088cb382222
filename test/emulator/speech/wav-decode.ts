/**
 * WAV decoding: RIFF/WAVE with PCM 8/16/24/32-bit integer or 32-bit float samples, any channel count and
 * sample rate, WAVE_FORMAT_EXTENSIBLE included. Everything is converted to 16-bit samples per channel,
 * which is all the speech engine needs. One pass over the samples, so long recordings stay linear.
 */

export class UnreadableAudioError extends Error {
  override name = 'UnreadableAudioError';
}

export interface DecodedAudio {
  sampleRate: number;
  /** One array of 16-bit samples per channel, all the same length. */
  channels: Int16Array[];
  durationMs: number;
}

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

interface FormatChunk {
  formatTag: number;
  channelCount: number;
  sampleRate: number;
  blockAlign: number;
  bitsPerSample: number;
}

export function decodeAudio(bytes: Uint8Array): DecodedAudio {
  if (bytes.length < 12) {
    throw new UnreadableAudioError(`the file is ${bytes.length} bytes long, too short to hold audio`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (fourCc(bytes, 0) !== 'RIFF' || fourCc(bytes, 8) !== 'WAVE') {
    throw new UnreadableAudioError(
      'the file is not a RIFF/WAVE file (headerless or raw audio and other containers are not supported)',
    );
  }

  let format: FormatChunk | undefined;
  let data: { offset: number; length: number } | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length && data === undefined) {
    const id = fourCc(bytes, offset);
    const declaredSize = view.getUint32(offset + 4, true);
    const body = offset + 8;
    // Streaming writers leave the data size at 0 or 0xFFFFFFFF: read what is actually there.
    const size = Math.min(declaredSize, bytes.length - body);
    if (id === 'fmt ') format = readFormat(view, body, size);
    if (id === 'data') data = { offset: body, length: size };
    offset = body + size + (size % 2);
  }
  if (format === undefined) throw new UnreadableAudioError('the WAV file has no "fmt " chunk');
  if (data === undefined) throw new UnreadableAudioError('the WAV file has no "data" chunk');

  const sampleFormat = sampleFormatOf(format);
  const bytesPerSample = format.bitsPerSample / 8;
  const blockAlign = Math.max(format.blockAlign, bytesPerSample * format.channelCount);
  const frameCount = Math.floor(data.length / blockAlign);
  if (frameCount === 0) throw new UnreadableAudioError('the WAV file contains no audio samples');

  const channels = Array.from({ length: format.channelCount }, () => new Int16Array(frameCount));
  const readSample = sampleReader(view, sampleFormat);
  for (let channel = 0; channel < format.channelCount; channel++) {
    const target = channels[channel] as Int16Array;
    let position = data.offset + channel * bytesPerSample;
    for (let frame = 0; frame < frameCount; frame++, position += blockAlign)
      target[frame] = readSample(position);
  }
  return { sampleRate: format.sampleRate, channels, durationMs: (frameCount / format.sampleRate) * 1000 };
}

function fourCc(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + 4));
}

function readFormat(view: DataView, offset: number, size: number): FormatChunk {
  if (size < 16)
    throw new UnreadableAudioError(`the WAV "fmt " chunk is ${size} bytes, expected at least 16`);
  let formatTag = view.getUint16(offset, true);
  const bitsPerSample = view.getUint16(offset + 14, true);
  if (formatTag === WAVE_FORMAT_EXTENSIBLE) {
    // The real format is in the first two bytes of the SubFormat GUID (cbSize at 16, GUID at 24).
    if (size < 26) throw new UnreadableAudioError('the WAVE_FORMAT_EXTENSIBLE "fmt " chunk is truncated');
    formatTag = view.getUint16(offset + 24, true);
  }
  const result: FormatChunk = {
    formatTag,
    channelCount: view.getUint16(offset + 2, true),
    sampleRate: view.getUint32(offset + 4, true),
    blockAlign: view.getUint16(offset + 12, true),
    bitsPerSample,
  };
  if (result.channelCount === 0) throw new UnreadableAudioError('the WAV file declares 0 channels');
  if (result.sampleRate === 0) throw new UnreadableAudioError('the WAV file declares a sample rate of 0 Hz');
  return result;
}

type SampleFormat = 'uint8' | 'int16' | 'int24' | 'int32' | 'float32';

function sampleFormatOf({ formatTag, bitsPerSample }: FormatChunk): SampleFormat {
  if (formatTag === WAVE_FORMAT_PCM) {
    if (bitsPerSample === 8) return 'uint8';
    if (bitsPerSample === 16) return 'int16';
    if (bitsPerSample === 24) return 'int24';
    if (bitsPerSample === 32) return 'int32';
    throw new UnreadableAudioError(
      `${bitsPerSample}-bit integer PCM is not supported (8, 16, 24 or 32 bits)`,
    );
  }
  if (formatTag === WAVE_FORMAT_IEEE_FLOAT) {
    if (bitsPerSample === 32) return 'float32';
    throw new UnreadableAudioError(`${bitsPerSample}-bit float samples are not supported (32 bits only)`);
  }
  throw new UnreadableAudioError(
    `WAV format tag 0x${formatTag.toString(16)} is not supported (PCM or IEEE float only)`,
  );
}

function sampleReader(view: DataView, format: SampleFormat): (position: number) => number {
  switch (format) {
    case 'uint8':
      return (position) => (view.getUint8(position) - 128) << 8;
    case 'int16':
      return (position) => view.getInt16(position, true);
    case 'int24':
      // The top 16 of the 24 bits: the high byte is signed, the middle byte unsigned.
      return (position) => (view.getInt8(position + 2) << 8) | view.getUint8(position + 1);
    case 'int32':
      return (position) => view.getInt32(position, true) >> 16;
    case 'float32':
      return (position) => {
        const value = view.getFloat32(position, true);
        const clamped = Number.isNaN(value) ? 0 : Math.max(-1, Math.min(1, value));
        return Math.round(clamped * 32767);
      };
  }
}
