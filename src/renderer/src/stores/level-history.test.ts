import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LevelRing,
  decibels,
  diskTimeLeft,
  holdPeak,
  loudness,
  noPeak,
  peakFallPerSecond,
  peakHoldMs,
  shownPeak,
  waveformBars,
  type HeldPeak,
} from './level-history';

const level = fc.double({ min: 0, max: 1, noNaN: true });

describe('the waveform keeps the last 30 s of readings', () => {
  it('holds 300 readings of 100 ms', () => {
    expect(waveformBars).toBe(300);
  });

  it('is always the newest readings, oldest first, at most its capacity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(level, { maxLength: 200 }),
        (capacity, readings) => {
          const ring = new LevelRing(capacity);
          for (const reading of readings) ring.push(reading);
          expect(ring.toArray()).toEqual(readings.slice(-capacity).map((value) => Math.fround(value)));
        },
      ),
    );
  });

  it('starts over when cleared', () => {
    const ring = new LevelRing(3);
    [0.1, 0.2, 0.3, 0.4].forEach((value) => ring.push(value));
    ring.clear();
    ring.push(0.5);
    expect(ring.toArray()).toEqual([0.5]);
  });
});

describe('the peak holds, then falls', () => {
  /** Readings at increasing times: the meter's input. */
  const readings = fc.array(fc.record({ level, afterMs: fc.integer({ min: 0, max: 3000 }) }), {
    minLength: 1,
    maxLength: 60,
  });
  function replay(list: { level: number; afterMs: number }[]): { held: HeldPeak; nowMs: number } {
    let held = noPeak;
    let nowMs = 0;
    for (const reading of list) {
      nowMs += reading.afterMs;
      held = holdPeak(held, reading.level, nowMs);
    }
    return { held, nowMs };
  }

  it('never shows less than the reading just made', () => {
    fc.assert(
      fc.property(readings, (list) => {
        const { held, nowMs } = replay(list);
        expect(shownPeak(held, nowMs)).toBeGreaterThanOrEqual(list.at(-1)!.level);
      }),
    );
  });

  it('shows the loudest reading of the last 1.5 s', () => {
    fc.assert(
      fc.property(readings, fc.integer({ min: 0, max: peakHoldMs }), (list, laterMs) => {
        const { held, nowMs } = replay(list);
        let at = nowMs;
        const recent = [...list].reverse().filter((reading) => {
          const inside = nowMs + laterMs - at <= peakHoldMs;
          at -= reading.afterMs;
          return inside;
        });
        const loudest = Math.max(...recent.map((reading) => reading.level), 0);
        expect(shownPeak(held, nowMs + laterMs)).toBeGreaterThanOrEqual(loudest);
      }),
    );
  });

  it('falls, never rises, once nothing louder comes, down to silence', () => {
    fc.assert(
      fc.property(
        readings,
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 5000 }),
        (list, a, b) => {
          const { held, nowMs } = replay(list);
          const [sooner, later] = a <= b ? [a, b] : [b, a];
          expect(shownPeak(held, nowMs + later)).toBeLessThanOrEqual(shownPeak(held, nowMs + sooner));
          expect(shownPeak(held, nowMs + peakHoldMs + 1000 / peakFallPerSecond)).toBe(0);
        },
      ),
    );
  });

  it('holds a shout for 1.5 s, then falls at half the scale a second', () => {
    const held = holdPeak(noPeak, 0.8, 1000);
    expect(shownPeak(held, 2500)).toBe(0.8);
    expect(shownPeak(held, 3500)).toBeCloseTo(0.3);
    // A quieter reading meanwhile holds for its own 1.5 s once the shout has fallen below it.
    const quieter = holdPeak(holdPeak(noPeak, 0.8, 0), 0.5, 1400);
    expect(shownPeak(quieter, 1500)).toBe(0.8);
    expect(shownPeak(quieter, 2500)).toBe(0.5);
    expect(shownPeak(quieter, 3100)).toBeCloseTo(0.4);
  });
});

describe('the waveform draws on a decibel scale', () => {
  it('puts -60 dBFS and below at the bottom and full scale at the top', () => {
    expect(loudness(0)).toBe(0);
    expect(loudness(0.001)).toBeCloseTo(0);
    expect(loudness(0.1)).toBeCloseTo(2 / 3);
    expect(loudness(1)).toBe(1);
  });

  it('reads a peak in dBFS, and silence as such', () => {
    expect(decibels(1)).toBe('0 dB');
    expect(decibels(0.5)).toBe('−6 dB');
    expect(decibels(0.01)).toBe('−40 dB');
    expect(decibels(0.0005)).toBe('Silent');
    expect(decibels(0)).toBe('Silent');
  });

  it('grows with the peak, within 0..1', () => {
    fc.assert(
      fc.property(level, level, (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(loudness(low)).toBeLessThanOrEqual(loudness(high));
        expect(loudness(high)).toBeGreaterThanOrEqual(0);
        expect(loudness(high)).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('disk time left', () => {
  const mono48k = { sampleRate: 48_000, channels: 1 };

  it('says hours from free bytes at the recording byte rate (PCM16)', () => {
    // 48 kHz mono PCM16 is 96,000 bytes a second: 41.5 h of it.
    expect(diskTimeLeft(96_000 * 3600 * 41.5, mono48k)).toBe('About 41 h of disk left');
    // Stereo takes twice the room.
    expect(diskTimeLeft(96_000 * 3600 * 41.5, { sampleRate: 48_000, channels: 2 })).toBe(
      'About 20 h of disk left',
    );
    expect(diskTimeLeft(32_000 * 3600 * 2000, { sampleRate: 16_000, channels: 1 })).toBe(
      'About 2,000 h of disk left',
    );
  });

  it('says minutes under an hour, and less than a minute at the end', () => {
    expect(diskTimeLeft(96_000 * 60 * 59.9, mono48k)).toBe('About 59 min of disk left');
    expect(diskTimeLeft(96_000 * 60, mono48k)).toBe('About 1 min of disk left');
    expect(diskTimeLeft(96_000 * 59, mono48k)).toBe('Less than a minute of disk left');
    expect(diskTimeLeft(0, mono48k)).toBe('Less than a minute of disk left');
  });
});
