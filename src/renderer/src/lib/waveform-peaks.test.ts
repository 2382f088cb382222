import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { waveformPeaks } from './waveform-peaks';

describe('waveformPeaks', () => {
  it('answers the loudest sample of each slice, the loudest slice scaled to 1', () => {
    const samples = Float32Array.from([0.1, -0.2, 0.05, 0, -0.4, 0.3, 0.1, 0.1]);
    expect(waveformPeaks([samples], 4)).toEqual([0.5, 0.125, 1, 0.25]);
  });

  it('takes the louder channel of a stereo recording', () => {
    const left = Float32Array.from([0.5, 0, 0, 0]);
    const right = Float32Array.from([0, 0, 0, -0.25]);
    expect(waveformPeaks([left, right], 2)).toEqual([1, 0.5]);
  });

  it('keeps silence flat and answers nothing for no samples or no slices', () => {
    expect(waveformPeaks([new Float32Array(6)], 3)).toEqual([0, 0, 0]);
    expect(waveformPeaks([new Float32Array(0)], 3)).toEqual([]);
    expect(waveformPeaks([], 3)).toEqual([]);
    expect(waveformPeaks([Float32Array.from([1])], 0)).toEqual([]);
  });

  it('answers one value in 0…1 per slice for any recording, whatever its length', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 120 }),
        (values, buckets) => {
          const peaks = waveformPeaks([Float32Array.from(values)], buckets);
          expect(peaks).toHaveLength(buckets);
          for (const peak of peaks) expect(peak >= 0 && peak <= 1).toBe(true);
          const loud = values.some((value) => Math.fround(value) !== 0);
          expect(Math.max(...peaks)).toBe(loud ? 1 : 0);
        },
      ),
    );
  });
});
