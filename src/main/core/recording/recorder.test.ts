import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecorderStatus } from '../../../shared/recording';
import { openDatabase, type Db } from '../library/database';
import { Microphone } from './microphone';
import { FakeClock } from '../../base/fake-clock.test-kit';
import { rawPcmRecordingInput } from './raw-pcm-input';
import { Recorder, levelOf, type RecordingInput } from './recorder';
import { RecordingMarks } from '../library/recording-marks';
import { Recordings } from '../library/recordings';

const rate = 16_000;
/** 50 ms of mono PCM16 at 16 kHz. */
const chunkBytes = 1600;

/** The raw input's pacing, by hand: `chunks` chunks of 50 ms are delivered. */
function deliver(pacing: FakeClock, chunks: number): Promise<void> {
  return pacing.advance(chunks * 50);
}

/** A tone at `amplitude` (0..1), `ms` long. */
function tone(ms: number, amplitude: number): Buffer {
  const samples = (rate * ms) / 1000;
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(Math.sin(i / 5) * amplitude * 32_767), i * 2);
  return pcm;
}

let dir: string;
let db: Db;
let microphone: Microphone;
let recordings: Recordings;
let marks: RecordingMarks;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-recorder-'));
  db = openDatabase(':memory:');
  microphone = new Microphone();
  recordings = new Recordings(db);
  marks = new RecordingMarks(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function recorderOver(
  input: RecordingInput,
  options: { freeBytes?: number } = {},
): { recorder: Recorder; statuses: RecorderStatus[]; levels: number[] } {
  const recorder = new Recorder({
    input,
    recordings,
    marks,
    folder: () => join(dir, 'recordings'),
    microphone,
    freeBytes: () => Promise.resolve(options.freeBytes ?? 1e12),
    // Its status tick and header refresh never run unless a test moves this clock.
    clock: new FakeClock(),
  });
  const statuses: RecorderStatus[] = [];
  const levels: number[] = [];
  recorder.events.subscribe((event) =>
    event.type === 'status' ? statuses.push(event.status) : levels.push(event.peak),
  );
  return { recorder, statuses, levels };
}

/** Lets queued file writes and promise callbacks run. */
const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('Recorder', () => {
  it('writes what it hears to a WAV in the library, leaves out a pause, and marks moments in recorded time', async () => {
    const speech = tone(1000, 0.5);
    const pacing = new FakeClock();
    const { recorder, levels } = recorderOver(
      rawPcmRecordingInput({ pcm: speech, sampleRate: rate, clock: pacing }),
    );
    const started = await recorder.start({ deviceId: null, channels: 1, sampleRate: rate });
    expect(started).toMatchObject({
      state: 'recording',
      deviceName: 'Recording (raw PCM file)',
      elapsedMs: 0,
    });
    expect(microphone.heldBy()).toBe('recorder');
    await deliver(pacing, 6); // 300 ms
    expect(recorder.mark('budget').atMs).toBe(300);
    expect(recorder.pause().state).toBe('paused');
    await deliver(pacing, 4); // heard, not kept
    expect(recorder.status().elapsedMs).toBe(300);
    recorder.resume();
    await deliver(pacing, 10);
    const mark = recorder.mark();
    expect(mark.atMs).toBe(800);
    recorder.noteMark(mark.id, 'ferry');
    await settled();
    const stopped = await recorder.stop();
    expect(stopped).toMatchObject({ state: 'idle', elapsedMs: 800, ended: null, microphoneHeldBy: null });
    expect(stopped.marks.map((m) => [m.atMs, m.note])).toEqual([
      [300, 'budget'],
      [800, 'ferry'],
    ]);
    expect(levels.length).toBeGreaterThan(5);
    expect(Math.max(...levels)).toBeGreaterThan(0.45);

    const [listed] = await recordings.list();
    expect(listed).toMatchObject({ status: 'finished', durationMs: 800, sampleRate: rate, channels: 1 });
    const file = readFileSync(listed!.path);
    expect(file.readUInt32LE(40)).toBe(16 * chunkBytes);
    // The sound is the input's: the first 300 ms, then (the paused 200 ms left out) from 500 ms.
    const data = file.subarray(44);
    expect(data.subarray(0, 6 * chunkBytes).equals(speech.subarray(0, 6 * chunkBytes))).toBe(true);
    expect(data.subarray(6 * chunkBytes).equals(speech.subarray(10 * chunkBytes, 20 * chunkBytes))).toBe(
      true,
    );
    expect(readdirSync(join(dir, 'recordings'))).toEqual([listed!.path.split('/').pop()]);
  });

  it('warns of 10 s of silence, of clipping and of a disk about to fill, and clears a warning that passed', async () => {
    const pcm = Buffer.concat([tone(10_500, 0), tone(500, 1), tone(3000, 0.3)]);
    const pacing = new FakeClock();
    const { recorder } = recorderOver(rawPcmRecordingInput({ pcm, sampleRate: rate, clock: pacing }), {
      freeBytes: 5 * 60 * rate * 2,
    });
    await recorder.start({ deviceId: 0, channels: 1, sampleRate: rate });
    await settled();
    const kinds = (): string[] => recorder.status().warnings.map((warning) => warning.kind);
    expect(kinds()).toEqual(['low-disk']);
    expect(recorder.status().warnings[0]?.message).toMatch(/about 5 more minutes/);
    await deliver(pacing, 199);
    expect(kinds()).toEqual(['low-disk']);
    await deliver(pacing, 2); // 10,050 ms of silence
    expect(kinds()).toEqual(['silence', 'low-disk']);
    expect(recorder.status().warnings[0]?.message).toMatch(/Nothing heard for 10 s/);
    await deliver(pacing, 18); // into the full-scale tone
    expect(kinds()).toEqual(['clipping', 'low-disk']);
    await deliver(pacing, 60); // 3 s of moderate sound later
    expect(kinds()).toEqual(['low-disk']);
    await recorder.stop();
  });

  it('stops cleanly when the device goes away, keeping everything before it and saying so', async () => {
    let fail: ((error: Error) => void) | undefined;
    let feed: ((pcm: Buffer) => unknown) | undefined;
    const input: RecordingInput = {
      devices: () => [
        {
          id: 3,
          name: 'USB recorder',
          inputs: 1,
          defaultSampleRate: rate,
          sampleRates: [rate],
          isDefault: true,
        },
      ],
      open: () => ({
        start: (onAudio, onError) => {
          feed = onAudio;
          fail = onError;
        },
        stop: () => Promise.resolve(),
      }),
    };
    const { recorder, statuses } = recorderOver(input);
    await recorder.start({ deviceId: 3, channels: 1, sampleRate: rate });
    for (let i = 0; i < 20; i++) feed!(tone(50, 0.4));
    fail!(new Error('device unplugged'));
    await settled();
    const last = statuses[statuses.length - 1]!;
    expect(last).toMatchObject({ state: 'idle', elapsedMs: 1000, microphoneHeldBy: null });
    expect(last.ended).toEqual({
      reason: 'device-lost',
      message:
        'USB recorder stopped (device unplugged). The recording stopped; everything before it is kept.',
    });
    const [listed] = await recordings.list();
    expect(listed).toMatchObject({ status: 'finished', durationMs: 1000 });
    expect(readFileSync(listed!.path).readUInt32LE(40)).toBe(20 * chunkBytes);
  });

  it('takes the microphone only when the assistant does not hold it, and refuses what cannot be recorded', async () => {
    const pacing = new FakeClock();
    const input = rawPcmRecordingInput({ pcm: tone(100, 0.2), sampleRate: rate, clock: pacing });
    const { recorder } = recorderOver(input);
    microphone.take('assistant');
    await expect(recorder.start({ deviceId: null, channels: 1, sampleRate: rate })).rejects.toThrow(
      'The assistant is listening. End the conversation with the assistant to record.',
    );
    expect(await recordings.list()).toEqual([]);
    microphone.release('assistant');
    await expect(recorder.start({ deviceId: null, channels: 1, sampleRate: 48_000 })).rejects.toThrow(
      'This input records at 16 kHz only. Pick that rate.',
    );
    // Nothing is left behind by a start that failed: no registration, no file, no microphone held.
    expect(await recordings.list()).toEqual([]);
    expect(readdirSync(join(dir, 'recordings'))).toEqual([]);
    expect(microphone.heldBy()).toBeUndefined();
    await expect(recorder.start({ deviceId: 9, channels: 1, sampleRate: rate })).rejects.toThrow(
      'That input is not connected any more. Pick another one.',
    );
    await recorder.start({ deviceId: null, channels: 2, sampleRate: rate });
    expect(() => microphone.take('assistant')).toThrow(/The recorder is using the microphone/);
    await expect(recorder.start({ deviceId: null, channels: 1, sampleRate: rate })).rejects.toThrow(
      'A recording is already running. Stop it first.',
    );
    await deliver(pacing, 2);
    await settled();
    const stopped = await recorder.stop();
    expect(stopped.recording).toMatchObject({ channels: 2, durationMs: 100 });
    expect(() => recorder.mark()).toThrow('Nothing is being recorded.');
    const unavailable = recorderOver({
      unavailable: () => 'The sound system could not be loaded.',
      devices: () => [],
      open: () => {
        throw new Error('never opened');
      },
    }).recorder;
    expect(unavailable.status().unavailable).toBe('The sound system could not be loaded.');
    await expect(unavailable.start({ deviceId: null, channels: 1, sampleRate: rate })).rejects.toThrow(
      'The sound system could not be loaded.',
    );
  });
});

describe('levelOf', () => {
  it('measures peak and RMS of PCM16', () => {
    const full = levelOf(tone(50, 1));
    expect(full.peak).toBeGreaterThan(0.99);
    expect(full.rms).toBeCloseTo(Math.SQRT1_2, 1);
    expect(levelOf(Buffer.alloc(100))).toEqual({ rms: 0, peak: 0 });
  });
});

describe('rawPcmRecordingInput', () => {
  it('plays its sound then silence, or fails at its end as an unplugged device does', async () => {
    const pacing = new FakeClock();
    const heard: Buffer[] = [];
    const errors: string[] = [];
    const pcm = tone(75, 0.5);
    const open = (unplugged: boolean) =>
      rawPcmRecordingInput({ pcm, sampleRate: rate, clock: pacing, unplugged }).open({
        deviceId: 0,
        channels: 2,
        sampleRate: rate,
      });
    const played = open(false);
    played.start(
      (chunk) => void heard.push(chunk),
      (error) => errors.push(error.message),
    );
    await deliver(pacing, 3);
    expect(heard.map((chunk) => chunk.length)).toEqual([2 * chunkBytes, 2 * chunkBytes, 2 * chunkBytes]);
    // Both channels hear the one voice; after it, silence.
    expect(heard[0]!.readInt16LE(4)).toBe(pcm.readInt16LE(2));
    expect(heard[0]!.readInt16LE(6)).toBe(pcm.readInt16LE(2));
    expect(levelOf(heard[2]!).peak).toBe(0);
    await played.stop();
    heard.length = 0;
    open(true).start(
      (chunk) => void heard.push(chunk),
      (error) => errors.push(error.message),
    );
    await deliver(pacing, 4);
    expect(heard).toHaveLength(2);
    expect(errors).toEqual(['the device was disconnected']);
  });
});
