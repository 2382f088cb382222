import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { redactedWordSpans } from '../media/redacted-recording';
import { cutWav, inspectWav } from './wav-clip';

const root = mkdtempSync(join(tmpdir(), 'verbatim-wav-clip-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A PCM WAV written by hand (not by the code under test) whose every byte is noise that is never
 * silence: 0 for 16 and 24 bits, 128 for unsigned 8-bit. So a silent byte in a clip can only
 * have been written by the silencing, and every other byte must be the recording's own.
 */
function noisyWav(channels: number, bits: 8 | 16 | 24, sampleRate: number, frames: number, seed: number) {
  const blockAlign = channels * (bits / 8);
  const data = Buffer.alloc(frames * blockAlign);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < data.length; i++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    let byte = (state >>> 24) & 0xff;
    if (byte === 0 || byte === 0x80) byte = 0x55;
    data[i] = byte;
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return { bytes: Buffer.concat([header, data]), data, blockAlign };
}

/** The sample frames of a clip, read from its own header as a player would. */
function clipFrames(clip: Uint8Array): Buffer {
  const bytes = Buffer.from(clip);
  const dataAt = 20 + bytes.readUInt32LE(16);
  expect(bytes.toString('latin1', dataAt, dataAt + 4)).toBe('data');
  return bytes.subarray(dataAt + 8, dataAt + 8 + bytes.readUInt32LE(dataAt + 4));
}

/** A word as the service times it: a gap after the last one (none: adjacent words), its length, redacted or not. */
const wordArbitrary = fc.record({
  gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 400 })),
  lengthMs: fc.integer({ min: 1, max: 700 }),
  redacted: fc.boolean(),
  mark: fc.constantFrom('###-####', '[PHONE_NUMBER]', '#####.', '[EMAIL_ADDRESS].', '####'),
});

/** A clip edge: at a word's start or end, or cutting into it (or past it) by up to 60 ms. */
const edgeArbitrary = fc.record({
  word: fc.nat(),
  atEnd: fc.boolean(),
  offsetMs: fc.oneof(fc.constant(0), fc.integer({ min: -60, max: 60 })),
});

const caseArbitrary = fc.record({
  channels: fc.integer({ min: 1, max: 2 }),
  bits: fc.constantFrom(8 as const, 16 as const, 24 as const),
  sampleRate: fc.constantFrom(8_000, 11_025, 16_000, 22_050, 44_100, 48_000),
  leadMs: fc.integer({ min: 0, max: 300 }),
  tailMs: fc.integer({ min: 0, max: 300 }),
  words: fc.array(wordArbitrary, { minLength: 1, maxLength: 10 }),
  from: edgeArbitrary,
  to: edgeArbitrary,
  seed: fc.integer(),
});

describe('a clip of a redacted transcript’s recording', () => {
  it('is silent over every redacted word and byte for byte the recording everywhere else', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async (c) => {
        // The transcript's words, each redacted one written with the service's marks.
        let at = c.leadMs;
        const words = c.words.map((word) => {
          const start = at + word.gapMs;
          at = start + word.lengthMs;
          return { start, end: at, text: word.redacted ? word.mark : 'ferry' };
        });
        const lengthMs = at + c.tailMs;
        const edge = (e: typeof c.from): number => {
          const word = words[e.word % words.length]!;
          return Math.min(lengthMs, Math.max(0, (e.atEnd ? word.end : word.start) + e.offsetMs));
        };
        const startMs = Math.min(edge(c.from), edge(c.to));
        const endMs = Math.max(edge(c.from), edge(c.to));
        fc.pre(endMs > startMs);

        const frames = Math.ceil((lengthMs * c.sampleRate) / 1000);
        const source = noisyWav(c.channels, c.bits, c.sampleRate, frames, c.seed);
        const path = join(root, `recording-${run++}.wav`);
        writeFileSync(path, source.bytes);
        const spans = redactedWordSpans({ redact_pii: true, words }, []);
        expect(spans).toHaveLength(c.words.filter((word) => word.redacted).length);

        const handle = await open(path, 'r');
        let clip: Uint8Array;
        try {
          const inspected = await inspectWav(handle, source.bytes.length);
          if (!inspected.ok) throw new Error(inspected.reason);
          clip = await cutWav(handle, inspected.layout, startMs, endMs, spans);
        } finally {
          await handle.close();
        }

        const silent = c.bits === 8 ? 0x80 : 0;
        const first = Math.floor((startMs * c.sampleRate) / 1000);
        const cut = clipFrames(clip);
        expect(cut.length % source.blockAlign).toBe(0);
        // Frame by frame, the samples a listener hears: silence inside a redacted word, the recording outside.
        const wrong: string[] = [];
        for (let index = 0; index < cut.length / source.blockAlign && wrong.length < 3; index++) {
          const frame = first + index;
          const got = cut.subarray(index * source.blockAlign, (index + 1) * source.blockAlign);
          // The frame sounds from frame/rate to (frame+1)/rate seconds: inside a word if that overlaps it.
          const inside = spans.some(
            (span) =>
              frame * 1000 < span.end * c.sampleRate && (frame + 1) * 1000 > span.start * c.sampleRate,
          );
          const recorded = source.data.subarray(frame * source.blockAlign, (frame + 1) * source.blockAlign);
          if (inside ? !got.every((byte) => byte === silent) : !got.equals(recorded))
            wrong.push(
              `frame ${frame} (${((frame * 1000) / c.sampleRate).toFixed(2)} ms) ${inside ? 'is heard' : 'was changed'}`,
            );
        }
        expect(wrong).toEqual([]);
      }),
      { numRuns: 200 },
    );
  }, 120_000);

  it('reads every sample of a 16-bit clip over a redacted word as zero, and the rest as recorded', async () => {
    // "They can call ###-#### …": the number is said from 1,000 to 1,600 ms.
    const words = [
      { start: 400, end: 900, text: 'call' },
      { start: 1_000, end: 1_600, text: '###-####' },
      { start: 1_600, end: 2_000, text: '[EMAIL_ADDRESS].' },
      { start: 2_100, end: 2_400, text: 'today.' },
    ];
    const source = noisyWav(1, 16, 16_000, 48_000, 7);
    const path = join(root, 'call.wav');
    writeFileSync(path, source.bytes);
    const handle = await open(path, 'r');
    const inspected = await inspectWav(handle, source.bytes.length);
    if (!inspected.ok) throw new Error(inspected.reason);
    const clip = clipFrames(
      await cutWav(handle, inspected.layout, 400, 2_400, redactedWordSpans({ redact_pii: true, words }, [])),
    );
    await handle.close();
    const sampleAt = (ms: number): number => clip.readInt16LE((ms - 400) * 16 * 2);
    const sourceAt = (ms: number): number => source.data.readInt16LE(ms * 16 * 2);
    for (let ms = 1_000; ms < 2_000; ms++) expect(sampleAt(ms)).toBe(0);
    for (const ms of [400, 999, 2_000, 2_399]) expect(sampleAt(ms)).toBe(sourceAt(ms));
  });
});
