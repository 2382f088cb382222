import type { SpeechRegion } from './types';

/**
 * Finds where someone is speaking from short-window energy. The threshold comes from the file itself
 * (its noise floor and its loud passages, read off a histogram so the cost stays linear), and a
 * hangover bridges the short dips between syllables and words, so a region is a phrase, not a syllable.
 */

const WINDOW_MS = 20;
/** Dips shorter than this are bridged: they are gaps inside a phrase, not pauses. */
const HANGOVER_MS = 200;
/** Shorter bursts are clicks, not speech. */
const MIN_REGION_MS = 80;
/** Nothing quieter than this is speech, however quiet the file (about -55 dBFS). */
const ABSOLUTE_FLOOR_DB = -55;
const SPEECH_ABOVE_NOISE_DB = 10;
const SPEECH_BELOW_PEAK_DB = 35;
const HISTOGRAM_FLOOR_DB = -120;
const BINS_PER_DB = 2;

/** RMS level (dBFS) of each 20 ms window, over all the given channels together. */
function windowLevels(channels: readonly Int16Array[], sampleRate: number): Float64Array {
  const windowSize = Math.max(1, Math.round((sampleRate * WINDOW_MS) / 1000));
  const frameCount = channels[0]?.length ?? 0;
  const windowCount = Math.ceil(frameCount / windowSize);
  const levels = new Float64Array(windowCount);
  for (let window = 0; window < windowCount; window++) {
    const from = window * windowSize;
    const to = Math.min(frameCount, from + windowSize);
    let sumOfSquares = 0;
    for (const samples of channels) {
      for (let i = from; i < to; i++) {
        const sample = (samples[i] ?? 0) / 32768;
        sumOfSquares += sample * sample;
      }
    }
    const meanSquare = sumOfSquares / ((to - from) * channels.length);
    levels[window] =
      meanSquare > 0 ? Math.max(HISTOGRAM_FLOOR_DB, 10 * Math.log10(meanSquare)) : HISTOGRAM_FLOOR_DB;
  }
  return levels;
}

/** The level below which `fraction` of the windows lie, from a 0.5 dB histogram. */
function percentileDb(levels: Float64Array, fraction: number): number {
  const binCount = -HISTOGRAM_FLOOR_DB * BINS_PER_DB + 1;
  const histogram = new Uint32Array(binCount);
  for (const level of levels) {
    const bin = Math.min(binCount - 1, Math.floor((level - HISTOGRAM_FLOOR_DB) * BINS_PER_DB));
    histogram[bin] = (histogram[bin] ?? 0) + 1;
  }
  const wanted = fraction * levels.length;
  let seen = 0;
  for (let bin = 0; bin < binCount; bin++) {
    seen += histogram[bin] ?? 0;
    if (seen >= wanted) return HISTOGRAM_FLOOR_DB + bin / BINS_PER_DB;
  }
  return 0;
}

function speechThresholdDb(levels: Float64Array): number {
  const noise = percentileDb(levels, 0.1);
  const peak = percentileDb(levels, 0.95);
  return Math.max(ABSOLUTE_FLOOR_DB, noise + SPEECH_ABOVE_NOISE_DB, peak - SPEECH_BELOW_PEAK_DB);
}

/** Speech regions (ms, sorted, non-overlapping) of the given channels mixed together. */
export function detectSpeechRegions(channels: readonly Int16Array[], sampleRate: number): SpeechRegion[] {
  const levels = windowLevels(channels, sampleRate);
  const threshold = speechThresholdDb(levels);
  const frameCount = channels[0]?.length ?? 0;
  const durationMs = (frameCount / sampleRate) * 1000;
  const regions: SpeechRegion[] = [];
  let openStart: number | undefined;
  let lastLoudEnd = 0;
  levels.forEach((level, window) => {
    if (level < threshold) return;
    const start = window * WINDOW_MS;
    if (openStart !== undefined && start - lastLoudEnd > HANGOVER_MS) {
      regions.push({ start: openStart, end: lastLoudEnd });
      openStart = undefined;
    }
    openStart ??= start;
    lastLoudEnd = Math.min(durationMs, start + WINDOW_MS);
  });
  if (openStart !== undefined) regions.push({ start: openStart, end: lastLoudEnd });
  return regions
    .filter((region) => region.end - region.start >= MIN_REGION_MS)
    .map((region) => ({ start: Math.round(region.start), end: Math.round(region.end) }));
}
