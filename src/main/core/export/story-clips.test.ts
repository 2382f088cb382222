import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import type { Story } from '../../../shared/highlights';
import type { AtomicWriteOps } from '../../base/fs';
import { type RecordingLookup, clipFileName, exportStoryClips } from './story-clips';
import { storyQuote } from './story-fixture.test-kit';

const root = mkdtempSync(join(tmpdir(), 'verbatim-story-clips-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const folder = (): string => join(root, `clips-${n++}`);

/**
 * A WAV written by hand (not by the code under test), with a LIST chunk between "fmt " and
 * "data" as many recorders write one. Each frame's samples encode the frame's own number, so
 * a clip's first and last frames say exactly where it was cut.
 */
function makeWav(channels: number, bits: 16 | 24, sampleRate: number, frames: number): Buffer {
  const bytesPerSample = bits / 8;
  const blockAlign = channels * bytesPerSample;
  const list = Buffer.from('LIST\x06\x00\x00\x00INFOab', 'latin1');
  const data = Buffer.alloc(frames * blockAlign);
  for (let frame = 0; frame < frames; frame++) {
    for (let channel = 0; channel < channels; channel++) {
      const value = (frame * (channel + 1)) % (1 << bits);
      data.writeUIntLE(value, frame * blockAlign + channel * bytesPerSample, bytesPerSample);
    }
  }
  const header = Buffer.alloc(36);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + 24 + list.length + 8 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bits, 34);
  const dataHeader = Buffer.alloc(8);
  dataHeader.write('data', 0, 'latin1');
  dataHeader.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, list, dataHeader, data]);
}

/** A clip read back field by field, as a player would read it. */
function readWav(bytes: Buffer) {
  expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
  expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
  expect(bytes.toString('latin1', 8, 12)).toBe('WAVE');
  expect(bytes.toString('latin1', 12, 16)).toBe('fmt ');
  const fmtSize = bytes.readUInt32LE(16);
  const dataAt = 20 + fmtSize;
  expect(bytes.toString('latin1', dataAt, dataAt + 4)).toBe('data');
  const dataSize = bytes.readUInt32LE(dataAt + 4);
  expect(dataAt + 8 + dataSize + (dataSize % 2)).toBe(bytes.length);
  return {
    format: bytes.readUInt16LE(20),
    channels: bytes.readUInt16LE(22),
    sampleRate: bytes.readUInt32LE(24),
    byteRate: bytes.readUInt32LE(28),
    blockAlign: bytes.readUInt16LE(32),
    bits: bytes.readUInt16LE(34),
    data: bytes.subarray(dataAt + 8, dataAt + 8 + dataSize),
  };
}

const monoPath = join(root, 'mono-16.wav');
const stereoPath = join(root, 'stereo-24.wav');
const mp3Path = join(root, 'council.mp3');
writeFileSync(monoPath, makeWav(1, 16, 16_000, 48_000)); // 3 s
writeFileSync(stereoPath, makeWav(2, 24, 44_100, 88_200)); // 2 s
// An MP3's ID3 tag and a frame header: enough to be recognised, nothing to decode here.
writeFileSync(
  mp3Path,
  Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.alloc(500)]),
);

const recordings: Record<string, Awaited<ReturnType<RecordingLookup>>> = {
  mono: { audioPath: monoPath, title: 'Mayor interview', redaction: null },
  stereo: { audioPath: stereoPath, title: 'Harbour walk', redaction: null },
  council: { audioPath: mp3Path, title: 'Council meeting', redaction: null },
  link: { audioPath: null, title: 'Press conference stream', redaction: null },
};
const lookups: string[] = [];
const findRecording: RecordingLookup = (transcriptId) => {
  lookups.push(transcriptId);
  const found = recordings[transcriptId];
  return found
    ? Promise.resolve(found)
    : Promise.reject(new VerbatimError('not_found', `No transcript ${transcriptId}.`));
};

const story = (items: Story['items']): Story => ({
  id: 1,
  name: 'Ferry',
  createdAt: 0,
  updatedAt: 0,
  quotes: items.length,
  items,
});

const monoQuote = storyQuote(1, {
  transcriptId: 'mono',
  text: 'We signed the ferry contract in March.',
  startMs: 1_250,
  endMs: 2_500,
});
const stereoQuote = storyQuote(2, {
  transcriptId: 'stereo',
  speakerName: 'Dock worker',
  text: 'Nobody asked us.',
  startMs: 333,
  endMs: 1_001,
});
const mp3Quote = storyQuote(3, { transcriptId: 'council', text: 'The vote is on Tuesday.' });

describe('exportStoryClips', () => {
  it('cuts mono 16-bit and stereo 24-bit WAV exactly on the word times, with right headers', async () => {
    const dir = folder();
    const result = await exportStoryClips(story([monoQuote, stereoQuote]), dir, findRecording, {
      replace: false,
    });
    expect(result.skipped).toEqual([]);
    expect(readdirSync(dir)).toEqual([
      '01 Mayor Elena Alvarez - We signed the ferry contract in March.wav',
      '02 Dock worker - Nobody asked us.wav',
    ]);

    const mono = readWav(readFileSync(join(dir, readdirSync(dir)[0] ?? '')));
    expect(mono).toMatchObject({
      format: 1,
      channels: 1,
      sampleRate: 16_000,
      byteRate: 32_000,
      blockAlign: 2,
      bits: 16,
    });
    // 1.250 s to 2.500 s at 16 kHz: frames 20,000 to 39,999.
    expect(mono.data.length).toBe(20_000 * 2);
    expect(mono.data.readUInt16LE(0)).toBe(20_000);
    expect(mono.data.readUInt16LE(mono.data.length - 2)).toBe(39_999);

    const stereo = readWav(readFileSync(join(dir, readdirSync(dir)[1] ?? '')));
    expect(stereo).toMatchObject({
      format: 1,
      channels: 2,
      sampleRate: 44_100,
      byteRate: 264_600,
      blockAlign: 6,
      bits: 24,
    });
    // 0.333 s is inside frame 14,685 (14,685.3) and 1.001 s inside frame 44,144 (44,144.1): both kept.
    expect(stereo.data.length).toBe((44_145 - 14_685) * 6);
    expect(stereo.data.readUIntLE(0, 3)).toBe(14_685);
    expect(stereo.data.readUIntLE(3, 3)).toBe(14_685 * 2);
    expect(stereo.data.readUIntLE(stereo.data.length - 6, 3)).toBe(44_144);
    expect(stereo.data.readUIntLE(stereo.data.length - 3, 3)).toBe(44_144 * 2);
  });

  it('says plainly which quotes cannot be cut and why, and still writes the WAV ones', async () => {
    const dir = folder();
    const result = await exportStoryClips(
      story([
        mp3Quote,
        monoQuote,
        storyQuote(4, { transcriptId: 'link', text: 'Questions from the floor.' }),
        storyQuote(5, { transcriptId: 'mono', missing: true, text: 'Gone words.' }),
        storyQuote(6, { transcriptId: null, text: 'Kept as text.' }),
        storyQuote(7, { transcriptId: 'deleted-since', text: 'Vanished.' }),
        storyQuote(8, { transcriptId: 'mono', text: 'Too late.', startMs: 5_000, endMs: 6_000 }),
        { id: 9, kind: 'text', text: 'Between quotes.' },
        stereoQuote,
      ]),
      dir,
      findRecording,
      { replace: false },
    );
    expect(result.skipped.map((s) => s.reason)).toEqual([
      'Quote 1 ("The vote is on Tuesday.") was not cut: the recording of "Council meeting" is MP3, and Verbatim can cut clips only from WAV recordings (it has no MP3 decoder); convert council.mp3 to WAV to cut this quote.',
      'Quote 3 ("Questions from the floor.") was not cut: the recording of "Press conference stream" is not on this computer (it was transcribed from a link).',
      'Quote 4 ("Gone words.") was not cut: its words were deleted in the transcript.',
      'Quote 5 ("Kept as text.") was not cut: its transcript was deleted from the library.',
      'Quote 6 ("Vanished.") was not cut: its transcript is no longer in the library.',
      'Quote 7 ("Too late.") was not cut: its time (00:00:05) is past the end of the recording of "Mayor interview" (00:00:03).',
    ]);
    expect(result.written.map((w) => w.number)).toEqual([2, 8]);
    expect(readdirSync(dir)).toEqual([
      '02 Mayor Elena Alvarez - We signed the ferry contract in March.wav',
      '08 Dock worker - Nobody asked us.wav',
    ]);
  });

  it('says when a recording has moved, and makes no folder when nothing can be cut', async () => {
    const dir = folder();
    recordings.moved = { audioPath: join(root, 'gone.wav'), title: 'Old interview', redaction: null };
    const result = await exportStoryClips(
      story([storyQuote(1, { transcriptId: 'moved', text: 'Hello.' })]),
      dir,
      findRecording,
      { replace: false },
    );
    expect(result.skipped[0]?.reason).toBe(
      `Quote 1 ("Hello.") was not cut: the recording of "Old interview" is no longer at ${join(root, 'gone.wav')} (moved, renamed or on a drive that is not connected).`,
    );
    expect(result.written).toEqual([]);
    expect(() => readdirSync(dir)).toThrow();
  });

  it('looks each recording up once however many quotes come from it', async () => {
    lookups.length = 0;
    await exportStoryClips(
      story([monoQuote, storyQuote(2, { transcriptId: 'mono', startMs: 0, endMs: 100, text: 'Hi.' })]),
      folder(),
      findRecording,
      { replace: false },
    );
    expect(lookups).toEqual(['mono']);
  });

  it('refuses, before writing any clip, to replace clips already in the folder', async () => {
    const dir = folder();
    mkdirSync(dir);
    writeFileSync(join(dir, '02 Dock worker - Nobody asked us.wav'), 'an older clip');
    const error = await exportStoryClips(story([monoQuote, stereoQuote]), dir, findRecording, {
      replace: false,
    }).catch((e: unknown) => e);
    expect((error as VerbatimError).code).toBe('conflict');
    expect((error as VerbatimError).message).toContain('02 Dock worker - Nobody asked us.wav');
    expect(readdirSync(dir)).toEqual(['02 Dock worker - Nobody asked us.wav']);
  });

  it('takes back the clips it wrote when the disk fills up halfway, leaving no half file', async () => {
    const dir = folder();
    let opened = 0;
    const fullOnSecondClip: AtomicWriteOps = {
      mkdir,
      rm,
      rename,
      open: async (path, flags) => {
        const handle = await open(path, flags);
        const full = ++opened === 2;
        return {
          writeFile: async (data) => {
            await handle.writeFile(typeof data === 'string' ? data.slice(0, 5) : data.subarray(0, 5));
            if (full) throw Object.assign(new Error('ENOSPC: simulated'), { code: 'ENOSPC' });
            await handle.writeFile(typeof data === 'string' ? data.slice(5) : data.subarray(5));
          },
          sync: () => handle.sync(),
          close: () => handle.close(),
        };
      },
    };
    const error = await exportStoryClips(story([monoQuote, stereoQuote]), dir, findRecording, {
      replace: false,
      ops: fullOnSecondClip,
    }).catch((e: unknown) => e);
    expect((error as VerbatimError).code).toBe('storage');
    expect((error as VerbatimError).message).toContain('not enough space');
    expect(opened).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('clipFileName', () => {
  it('is numbered in story order and safe on every OS', () => {
    const quote = storyQuote(1, {
      speakerName: 'Dr. Who?',
      text: 'What?\u0007 "No" / maybe: yes* <or> a|b\\c and then a very long tail that goes on and on past sixty characters',
    });
    const name = clipFileName(7, 120, quote);
    expect(name).toBe('007 Dr. Who - What No maybe yes or a b c and then a very long tail that.wav');
    expect(name).not.toMatch(/[<>:"/\\|?*]/);
    expect(clipFileName(1, 3, storyQuote(1, { speakerName: null, text: '...' }))).toBe('01.wav');
  });
});
