/**
 * The recording's shape for the transport bar's scrubber: the loudest sample in each of `buckets`
 * equal slices of the recording, across its channels, scaled so the loudest slice is 1. A quiet
 * interview still draws a readable outline; silence stays flat at 0.
 */
export function waveformPeaks(channels: readonly Float32Array[], buckets: number): number[] {
  const count = Math.max(0, Math.floor(buckets));
  const length = Math.min(...channels.map((channel) => channel.length));
  if (count === 0 || channels.length === 0 || !Number.isFinite(length) || length === 0) return [];
  const peaks = new Array<number>(count).fill(0);
  for (let bucket = 0; bucket < count; bucket++) {
    // Each sample belongs to exactly one slice; a recording shorter than the slices repeats its samples.
    const from = Math.floor((bucket * length) / count);
    const to = Math.max(from + 1, Math.floor(((bucket + 1) * length) / count));
    let peak = 0;
    for (const channel of channels) {
      for (let at = from; at < to && at < length; at++) {
        const magnitude = Math.abs(channel[at] ?? 0);
        if (magnitude > peak) peak = magnitude;
      }
    }
    peaks[bucket] = peak;
  }
  const loudest = Math.max(...peaks);
  return loudest > 0 ? peaks.map((peak) => peak / loudest) : peaks;
}
