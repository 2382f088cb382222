import { waveformPeaks } from './waveform-peaks';

/** Decoded at a telephone's rate: enough for an outline, and an hour takes about 115 MB. */
const decodeRate = 8000;
/** Larger recordings (hours of WAV) are not decoded: the scrubber is a plain track for them. */
const largestDecodedBytes = 120 * 1024 * 1024;

/**
 * The recording's outline for the scrubber, from the same address the player plays. Answers
 * undefined when it cannot be had (no Web Audio, a format the browser cannot decode, a file
 * too large, a missing file): the scrubber then draws a plain track, which works just as well.
 */
export async function recordingPeaks(
  url: string,
  buckets: number,
  signal: AbortSignal,
): Promise<number[] | undefined> {
  if (typeof OfflineAudioContext === 'undefined') return undefined;
  try {
    const response = await fetch(url, { signal });
    const length = Number(response.headers.get('content-length') ?? 0);
    if (!response.ok || length > largestDecodedBytes) return undefined;
    const bytes = await response.arrayBuffer();
    if (signal.aborted || bytes.byteLength > largestDecodedBytes) return undefined;
    const context = new OfflineAudioContext(1, 1, decodeRate);
    const audio = await context.decodeAudioData(bytes);
    const channels = Array.from({ length: audio.numberOfChannels }, (_, channel) =>
      audio.getChannelData(channel),
    );
    return waveformPeaks(channels, buckets);
  } catch {
    // Undecodable or unreachable: the outline is decoration, and the player says itself when the file is missing.
    return undefined;
  }
}
