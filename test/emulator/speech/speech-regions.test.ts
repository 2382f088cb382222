import { describe, expect, it } from 'vitest';
import { detectSpeechRegions } from './speech-regions';
import { buildWav, readFixture, toneBursts, type FixtureName } from './test-audio';
import { transcribeAudio } from './transcribe';
import type { SpeechRegion, Word } from './types';
import { decodeAudio } from './wav-decode';

/** Energy is measured in 20 ms windows, so edges are known to within two windows. */
const EDGE_TOLERANCE_MS = 40;

function regionsOf(name: FixtureName, channel?: number): SpeechRegion[] {
  const audio = decodeAudio(readFixture(name).bytes);
  const channels = channel === undefined ? audio.channels : [audio.channels[channel - 1] as Int16Array];
  return detectSpeechRegions(channels, audio.sampleRate);
}

const inside = (time: number, regions: readonly SpeechRegion[]): boolean =>
  regions.some((region) => time >= region.start && time < region.end);

describe('detectSpeechRegions', () => {
  it('finds tone bursts, bridging short dips and splitting at pauses', () => {
    const samples = toneBursts(16_000, 500, [
      { toneMs: 400, pauseMs: 100 },
      { toneMs: 300, pauseMs: 600 },
      { toneMs: 500, pauseMs: 300 },
    ]);
    const audio = decodeAudio(buildWav([samples], 16_000, 'int16'));
    const regions = detectSpeechRegions(audio.channels, audio.sampleRate);
    expect(regions).toHaveLength(2);
    expect(regions[0]?.start).toBeCloseTo(500, -2);
    expect(regions[0]?.end).toBeCloseTo(1300, -2);
    expect(regions[1]?.start).toBeCloseTo(1900, -2);
    expect(regions[1]?.end).toBeCloseTo(2400, -2);
  });

  it('finds nothing in digital silence', () => {
    expect(regionsOf('silence')).toEqual([]);
  });

  for (const name of ['interview-ferry-contract', 'press-statement', 'spanish-clip'] as const) {
    it(`lines up with where the generator put the voices in ${name}`, () => {
      const regions = regionsOf(name);
      const { turns } = readFixture(name).fixture;
      expect(regions[0]?.start).toBeGreaterThanOrEqual(500 - EDGE_TOLERANCE_MS);
      for (const turn of turns) {
        expect(regions.some((region) => Math.abs(region.start - turn.startMs) <= EDGE_TOLERANCE_MS)).toBe(
          true,
        );
        expect(regions.some((region) => Math.abs(region.end - turn.endMs) <= EDGE_TOLERANCE_MS)).toBe(true);
      }
      // Nothing is detected in the pauses between turns.
      for (const region of regions) {
        expect(
          turns.some(
            (turn) =>
              region.start >= turn.startMs - EDGE_TOLERANCE_MS &&
              region.end <= turn.endMs + EDGE_TOLERANCE_MS,
          ),
        ).toBe(true);
      }
    });
  }

  it('hears each channel of the stereo call on its own', () => {
    const { turns } = readFixture('stereo-call').fixture;
    for (const channel of [1, 2]) {
      const regions = regionsOf('stereo-call', channel);
      const own = turns.filter((turn) => turn.channel === channel);
      const other = turns.filter((turn) => turn.channel !== channel);
      for (const turn of own) expect(inside(turn.startMs + 100, regions)).toBe(true);
      for (const turn of other) expect(inside((turn.startMs + turn.endMs) / 2, regions)).toBe(false);
    }
  });
});

describe('word timing over the speech regions', () => {
  it('puts every word of the interview on speech, inside its own turn', () => {
    const { bytes, fixture } = readFixture('interview-ferry-contract');
    const outcome = transcribeAudio(bytes, { speaker_labels: true, disfluencies: true });
    if (outcome.status !== 'completed') throw new Error(outcome.error);
    const words = outcome.fields.words as Word[];
    const regions = regionsOf('interview-ferry-contract');
    expect(words[0]?.start).toBeGreaterThanOrEqual(500 - EDGE_TOLERANCE_MS);
    for (const word of words) {
      expect(inside(word.start, regions), `"${word.text}" at ${word.start} ms`).toBe(true);
      expect(word.end).toBeGreaterThan(word.start);
    }
    let next = 0;
    for (const turn of fixture.turns) {
      const count = turn.text.split(' ').length;
      for (const word of words.slice(next, next + count)) {
        expect(word.start).toBeGreaterThanOrEqual(turn.startMs - EDGE_TOLERANCE_MS);
        expect(word.end).toBeLessThanOrEqual(turn.endMs + EDGE_TOLERANCE_MS);
      }
      next += count;
    }
    expect(next).toBe(words.length);
  });

  it('keeps words in order without overlaps', () => {
    const { bytes } = readFixture('interview-ferry-contract');
    const outcome = transcribeAudio(bytes, {});
    if (outcome.status !== 'completed') throw new Error(outcome.error);
    const words = outcome.fields.words as Word[];
    words
      .slice(1)
      .forEach((word, index) => expect(word.start).toBeGreaterThanOrEqual((words[index] as Word).end));
  });
});
