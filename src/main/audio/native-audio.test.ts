import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { queueUtterance } from '../../../test/emulator/voice/voice-test-client';
import { spokenPcm } from '../../../test/fixtures/spoken-pcm';
import { bytesForMs } from '../core/voice/pcm';
import type { AudioSink } from '../core/voice/playback-queue';
import { voiceAddress } from '../core/voice/voice-address';
import { VoiceSession, type AudioSource } from '../core/voice/voice-session';
import { wsSocketFactory } from '../core/voice/voice-socket';
import { EventLog } from '../core/voice/voice-session.test-kit';
import { VerbatimError } from '../../shared/errors';
import { AudioBackend } from './audio-backend';
import {
  defaultAudioBackend,
  nativeRecordingInputOf,
  listAudioDevices,
  nativeAssistantAudio,
  nativeAssistantAudioOf,
  NativeAudioSink,
  NativeAudioSource,
  type Naudiodon,
} from './native-audio';

/**
 * Real PortAudio streams with ALSA's `file` plugin as the default device: capture reads a raw
 * PCM file, playback writes one. The plugin is not paced in real time and repeats stale data
 * past the end of its input, so the fixture is padded with silence and only the bytes of the
 * fixture are taken.
 */
const dir = mkdtempSync(join(tmpdir(), 'verbatim-alsa-'));
const speech = join(dir, 'speech.raw');
const played = join(dir, 'played.raw');
const key = 'native-audio-key';
let emulator: RunningEmulator;
let speechPcm: Buffer;

function useRawFiles(input: string): void {
  const config = join(dir, 'asound.conf');
  writeFileSync(
    config,
    `pcm.!default { type file; slave.pcm { type null } file "${played}"; infile "${input}"; format "raw" }\n`,
  );
  process.env.ALSA_CONFIG_PATH = config;
}

beforeAll(async () => {
  speechPcm = spokenPcm(2);
  writeFileSync(speech, Buffer.concat([speechPcm, Buffer.alloc(bytesForMs(3000))]));
  useRawFiles(speech);
  emulator = await startEmulator({ port: 0, speed: 10, key });
});
afterAll(() => emulator.close());

/** Passes on the source's audio up to `limit` bytes, keeping a copy, then nothing more. */
function limited(source: AudioSource, limit: number): AudioSource & { taken: Buffer[] } {
  const taken: Buffer[] = [];
  let count = 0;
  return {
    taken,
    start: (onAudio, onError) =>
      source.start((pcm) => {
        if (count >= limit) return;
        const piece = pcm.subarray(0, limit - count);
        count += piece.length;
        taken.push(Buffer.from(piece));
        onAudio(piece);
      }, onError),
    stop: () => source.stop(),
  };
}

/** Keeps a copy of what goes to the device. */
function recorded(sink: AudioSink): AudioSink & { written: Buffer[] } {
  const written: Buffer[] = [];
  return {
    written,
    write: (pcm) => {
      written.push(Buffer.from(pcm));
      return sink.write(pcm);
    },
    drained: () => sink.drained(),
    flush: () => sink.flush(),
    close: () => sink.close(),
  };
}

// ALSA's file plugin is the sound card these tests use; macOS and Windows have no file-backed
// device, so there they do not run (vitest lists them as skipped under this title) and native
// audio is checked by the backend tests below and by a person at a microphone.
describe.runIf(process.platform === 'linux')(
  'native audio through ALSA (Linux only: a file stands in for the sound card)',
  () => {
    it('lists the default device', () => {
      const devices = listAudioDevices();
      expect(devices.map((device) => device.name)).toContain('default');
      expect(devices[0]).toMatchObject({
        inputs: expect.any(Number) as unknown,
        outputs: expect.any(Number) as unknown,
      });
    });

    it('captures a spoken fixture into a session and plays the agent reply into a file', async () => {
      // Silence after the speech ends the turn; the capture stops after speech plus 1 s of it.
      const source = limited(new NativeAudioSource(), speechPcm.length + bytesForMs(1000));
      const sink = recorded(new NativeAudioSink());
      const log = new EventLog();
      const session = new VoiceSession({
        socketUrl: voiceAddress(emulator.url).socketUrl,
        auth: { kind: 'key', apiKey: key },
        config: { systemPrompt: '', greeting: '', vadThreshold: 0.02, voice: 'v', volume: 100, tools: [] },
        socketFactory: wsSocketFactory,
        source,
        sink,
        onEvent: log.listener,
        headphones: true,
      });
      await queueUtterance(emulator.url, 'read me the statement');
      await session.start();
      expect((await log.next('user-transcript', (event) => event.final)).text).toBe('read me the statement');
      const reply = await log.next('agent-transcript');
      expect(reply.text).toMatch(/You said: read me the statement\./);
      await log.next('reply-done');
      await expect.poll(() => session.state).toBe('listening');
      await session.stop();

      // What the microphone gave is the fixture, byte for byte.
      expect(Buffer.concat(source.taken).subarray(0, speechPcm.length).equals(speechPcm)).toBe(true);
      // The agent's whole reply reached the device file: one 50 ms chunk per character.
      const reply24k = Buffer.concat(sink.written);
      expect(reply24k.length).toBe(reply.text.length * bytesForMs(50));
      const file = readFileSync(played);
      const voiced = reply24k.subarray(bytesForMs(50), bytesForMs(100)); // the second character's tone
      expect(file.indexOf(voiced)).toBeGreaterThanOrEqual(0);
      expect(file.length).toBeGreaterThanOrEqual(reply24k.length);
    });

    it('resamples a device that captures at 48 kHz to 24 kHz', async () => {
      // The file plugin hands over raw bytes at whatever rate is asked: read as 48 kHz, the
      // fixture comes out with every other sample.
      const source = new NativeAudioSource({ sampleRate: 48_000 });
      const chunks: Buffer[] = [];
      let total = 0;
      const wanted = speechPcm.length / 2;
      await new Promise<void>((done, fail) => {
        source.start((pcm) => {
          chunks.push(pcm);
          total += pcm.length;
          if (total >= wanted) done();
        }, fail);
      });
      await source.stop();
      const narrow = Buffer.concat(chunks).subarray(0, wanted);
      expect(narrow.length).toBe(wanted);
      for (const index of [1000, 5000, 20_000]) {
        expect(narrow.readInt16LE(index * 2)).toBe(speechPcm.readInt16LE(index * 4));
      }
    });
  },
);

describe('the sound backend', () => {
  it('is the real naudiodon here, available to the assistant', () => {
    expect(nativeAssistantAudio.unavailable?.()).toBeUndefined();
    expect(nativeAssistantAudio.devices().map((device) => device.name)).toContain('default');
  });

  it('makes the assistant’s devices unavailable, not a crash, when naudiodon will not load', async () => {
    const log = vi.fn();
    // The loader throws as require does for an addon built for another Electron.
    const load = vi.fn((): Naudiodon => {
      throw new Error(
        "The module '/app/naudiodon.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 139.",
      );
    });
    const audio = nativeAssistantAudioOf(new AudioBackend(load, log));

    const message = audio.unavailable?.();
    expect(message).toMatch(
      /^Verbatim cannot use the microphone or speaker on this computer: .+Everything else works/,
    );
    expect(audio.devices()).toEqual([]);
    const refusal = (action: () => unknown): unknown => {
      try {
        action();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const fromSource = refusal(() =>
      audio.source(null).start(
        () => undefined,
        () => undefined,
      ),
    );
    expect(fromSource).toBeInstanceOf(VerbatimError);
    expect((fromSource as VerbatimError).message).toBe(message);
    const fromSink = refusal(() => audio.sink(3, () => undefined).write(Buffer.alloc(4)));
    expect((fromSink as VerbatimError).message).toBe(message);
    await audio.source(null).stop();
    // Tried once, said once, however often the UI asks.
    expect(load).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledTimes(1);
  });
});

describe('recording an interview through PortAudio', () => {
  it('lists the default input first and records its sound, byte for byte, into the crash-safe WAV', async () => {
    const { Recorder } = await import('../core/recording/recorder');
    const { Recordings } = await import('../core/library/recordings');
    const { RecordingMarks } = await import('../core/library/recording-marks');
    const { Microphone } = await import('../core/recording/microphone');
    const { openDatabase } = await import('../core/library/database');
    const input = nativeRecordingInputOf(defaultAudioBackend);
    const devices = input.devices();
    expect(devices[0]).toMatchObject({ isDefault: true });
    expect(devices.filter((device) => device.isDefault)).toHaveLength(1);
    expect(devices.every((device) => device.inputs > 0)).toBe(true);
    expect(devices[0]!.sampleRates).toEqual(expect.arrayContaining([48_000, 44_100, 16_000]));

    const db = openDatabase(':memory:');
    const recordings = new Recordings(db);
    const recorder = new Recorder({
      input,
      recordings,
      marks: new RecordingMarks(db),
      folder: () => join(dir, 'recordings'),
      microphone: new Microphone(),
      freeBytes: () => Promise.resolve(1e12),
    });
    await recorder.start({ deviceId: null, channels: 1, sampleRate: 48_000 });
    await vi.waitFor(() => expect(recorder.status().elapsedMs).toBeGreaterThanOrEqual(1000), {
      timeout: 10_000,
    });
    await recorder.stop();
    const [recording] = await recordings.list();
    const file = readFileSync(recording!.path);
    expect(file.readUInt32LE(40)).toBe(file.length - 44);
    // The plugin reads the raw file as the stream's format: the WAV holds those very bytes.
    const sent = readFileSync(speech);
    expect(file.subarray(44, 44 + 96_000).equals(sent.subarray(0, 96_000))).toBe(true);
    db.close();
  });
});
