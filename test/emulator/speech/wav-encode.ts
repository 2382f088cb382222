/** The 44-byte header of a 16-bit PCM WAV file holding `dataLength` bytes of samples. */
export function wavHeaderPcm16(sampleRate: number, channelCount: number, dataLength: number): Uint8Array {
  const bytes = new Uint8Array(44);
  writeHeader(new DataView(bytes.buffer), bytes, sampleRate, channelCount, dataLength);
  return bytes;
}

/** Writes 16-bit PCM WAV files (the redacted audio and the generated fixtures). */
export function encodeWavPcm16(sampleRate: number, channels: readonly Int16Array[]): Uint8Array {
  const channelCount = channels.length;
  const frameCount = channels[0]?.length ?? 0;
  const dataLength = frameCount * channelCount * 2;
  const bytes = new Uint8Array(44 + dataLength);
  const view = new DataView(bytes.buffer);
  writeHeader(view, bytes, sampleRate, channelCount, dataLength);
  for (let channel = 0; channel < channelCount; channel++) {
    const samples = channels[channel] as Int16Array;
    let position = 44 + channel * 2;
    for (let frame = 0; frame < frameCount; frame++, position += channelCount * 2) {
      view.setInt16(position, samples[frame] ?? 0, true);
    }
  }
  return bytes;
}

function writeHeader(
  view: DataView,
  bytes: Uint8Array,
  sampleRate: number,
  channelCount: number,
  dataLength: number,
): void {
  const writeFourCc = (offset: number, text: string): void => {
    for (let i = 0; i < 4; i++) bytes[offset + i] = text.charCodeAt(i);
  };
  writeFourCc(0, 'RIFF');
  // A file over 4 GiB cannot say its size in a WAV header; the largest value is the convention.
  view.setUint32(4, Math.min(0xffffffff, 36 + dataLength), true);
  writeFourCc(8, 'WAVE');
  writeFourCc(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channelCount, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channelCount * 2, true);
  view.setUint16(32, channelCount * 2, true);
  view.setUint16(34, 16, true);
  writeFourCc(36, 'data');
  view.setUint32(40, Math.min(0xffffffff, dataLength), true);
}
