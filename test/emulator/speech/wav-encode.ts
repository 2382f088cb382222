/** Writes 16-bit PCM WAV files (the redacted audio and the generated fixtures). */
export function encodeWavPcm16(sampleRate: number, channels: readonly Int16Array[]): Uint8Array {
  const channelCount = channels.length;
  const frameCount = channels[0]?.length ?? 0;
  const dataLength = frameCount * channelCount * 2;
  const bytes = new Uint8Array(44 + dataLength);
  const view = new DataView(bytes.buffer);
  const writeFourCc = (offset: number, text: string): void => {
    for (let i = 0; i < 4; i++) bytes[offset + i] = text.charCodeAt(i);
  };
  writeFourCc(0, 'RIFF');
  view.setUint32(4, 36 + dataLength, true);
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
  view.setUint32(40, dataLength, true);
  for (let channel = 0; channel < channelCount; channel++) {
    const samples = channels[channel] as Int16Array;
    let position = 44 + channel * 2;
    for (let frame = 0; frame < frameCount; frame++, position += channelCount * 2) {
      view.setInt16(position, samples[frame] ?? 0, true);
    }
  }
  return bytes;
}
