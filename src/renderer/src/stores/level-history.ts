/**
 * The pure parts of the Record view's live input (issue #33): the last 30 s of level readings
 * the waveform draws, the peak level that holds a moment before it falls, and how long the disk
 * lasts at the recording's byte rate.
 */

/** Main sends the input's level once per 100 ms of sound (recorder.ts `levelEveryMs`). */
export const levelEveryMs = 100;
/** The waveform shows the last 30 s: one bar per reading. */
export const waveformBars = 30_000 / levelEveryMs;

/** The last `capacity` readings in fixed memory, however long the interview runs. */
export class LevelRing {
  private readonly values: Float32Array;
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.values = new Float32Array(capacity);
  }

  push(value: number): void {
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  clear(): void {
    this.next = 0;
    this.count = 0;
  }

  /** The readings kept, oldest first. */
  toArray(): number[] {
    const start = (this.next - this.count + this.capacity) % this.capacity;
    return Array.from({ length: this.count }, (_, i) => this.values[(start + i) % this.capacity]!);
  }
}

/** A reading of the input's peak and when it came. */
export interface PeakReading {
  level: number;
  atMs: number;
}

/**
 * The readings a peak-holding meter still shows, loudest and oldest first: each later one is
 * quieter (a louder, later reading hides an earlier one for good).
 */
export type HeldPeak = readonly PeakReading[];

/** A peak stays this long, so a shout is seen, then falls at `peakFallPerSecond`. */
export const peakHoldMs = 1500;
/** The full scale in 2 s: a fall the eye can follow. */
export const peakFallPerSecond = 0.5;

export const noPeak: HeldPeak = [];

/** What one reading shows at `nowMs`: its level for `peakHoldMs`, then falling to 0. */
function shownBy(reading: PeakReading, nowMs: number): number {
  const falling = nowMs - reading.atMs - peakHoldMs;
  if (falling <= 0) return reading.level;
  return Math.max(0, reading.level - (peakFallPerSecond * falling) / 1000);
}

/** The peak shown at `nowMs`: the loudest of the last 1.5 s, or an older one still falling. */
export function shownPeak(held: HeldPeak, nowMs: number): number {
  return held.reduce((shown, reading) => Math.max(shown, shownBy(reading, nowMs)), 0);
}

/** The held peak after a reading at `nowMs`; readings it hides, or that have fallen, are let go. */
export function holdPeak(held: HeldPeak, level: number, nowMs: number): HeldPeak {
  return [
    ...held.filter((reading) => reading.level > level && shownBy(reading, nowMs) > 0),
    { level, atMs: nowMs },
  ];
}

/** How loud a 0..1 peak looks, 0..1 on a decibel scale from -60 dBFS: speech fills the bars. */
export function loudness(peak: number): number {
  if (peak <= 0) return 0;
  return Math.min(1, Math.max(0, (20 * Math.log10(peak) + 60) / 60));
}

/** The bytes a second of PCM16 takes at a recording's rate and channels. */
export function bytesPerSecond(format: { sampleRate: number; channels: number }): number {
  return format.sampleRate * format.channels * 2;
}

/** "About 41 h of disk left", "About 12 min of disk left": how long the disk lasts recording. */
export function diskTimeLeft(freeBytes: number, format: { sampleRate: number; channels: number }): string {
  const minutes = Math.floor(freeBytes / bytesPerSecond(format) / 60);
  if (minutes < 1) return 'Less than a minute of disk left';
  if (minutes < 60) return `About ${minutes} min of disk left`;
  return `About ${Math.floor(minutes / 60).toLocaleString('en-US')} h of disk left`;
}

/** "−6 dB", "0 dB": a 0..1 peak in dBFS, as a level meter reads; "Silent" below −60 dB. */
export function decibels(peak: number): string {
  if (loudness(peak) === 0) return 'Silent';
  const db = Math.round(20 * Math.log10(Math.min(1, peak)));
  return db < 0 ? `−${-db} dB` : '0 dB';
}
