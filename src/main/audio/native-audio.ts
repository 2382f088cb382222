import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as NaudiodonModule from 'naudiodon';
import type { AudioOptions, IoStreamRead, IoStreamWrite } from 'naudiodon';
import { VerbatimError } from '../../shared/errors';
import { Resampler } from '../core/voice/pcm';
import type { AssistantAudio } from '../core/voice/assistant-service';
import type { AudioSink } from '../core/voice/playback-queue';
import { VOICE_SAMPLE_RATE } from '../core/voice/voice-protocol';
import type { AudioSource } from '../core/voice/voice-session';
import { AudioBackend, loadNaudiodon, readFileHead } from './audio-backend';
import type { RecordingInput } from '../core/recording/recorder';
import { recordingRates } from '../../shared/recording';

/**
 * The microphone and the speaker through PortAudio (naudiodon). Loaded on first use: the native
 * module prints to stdout and installs a crash handler when it loads, which nothing else
 * (the CLI, the web host) should pay for. When it cannot load, the assistant says why and the
 * rest of the app carries on (audio-backend.ts).
 */

export type Naudiodon = typeof NaudiodonModule;

const requireHere = createRequire(import.meta.url);

/** The app's one naudiodon, loaded (or found unavailable) once. */
export const defaultAudioBackend = new AudioBackend<Naudiodon>(
  () =>
    loadNaudiodon({
      platform: process.platform,
      arch: process.arch,
      requireModule: (): unknown => requireHere('naudiodon'),
      packageDir: () => dirname(requireHere.resolve('naudiodon/package.json')),
      readHead: (path) => readFileHead(path),
    }) as Naudiodon,
);

export interface AudioDevice {
  id: number;
  name: string;
  inputs: number;
  outputs: number;
  defaultSampleRate: number;
}

export function listAudioDevices(backend: AudioBackend<Naudiodon> = defaultAudioBackend): AudioDevice[] {
  return backend
    .module()
    .getDevices()
    .map((device) => ({
      id: device.id,
      name: device.name,
      inputs: device.maxInputChannels,
      outputs: device.maxOutputChannels,
      defaultSampleRate: device.defaultSampleRate,
    }));
}

export interface DeviceChoice {
  /** A device id from listAudioDevices; undefined for the system's default. */
  deviceId?: number | undefined;
  /** Ask the device for this rate instead of 24 kHz (a device that cannot do 24 kHz). */
  sampleRate?: number | undefined;
}

/** ~50 ms per device buffer, like the chunks the agent gets. */
const BUFFER_MS = 50;

function deviceError(what: string, error: unknown): VerbatimError {
  const detail = error instanceof Error ? error.message : String(error);
  return new VerbatimError('internal', `The ${what} could not be opened (${detail}). Pick another device.`);
}

/** Opens a stream at 24 kHz, or at the device's own rate when it refuses 24 kHz. */
function openStream<T>(
  what: 'microphone' | 'speaker',
  choice: DeviceChoice,
  backend: AudioBackend<Naudiodon>,
  create: (audio: Naudiodon, options: AudioOptions) => T,
): { stream: T; rate: number } {
  const audio = backend.module();
  const rates = [choice.sampleRate ?? VOICE_SAMPLE_RATE];
  const device = audio.getDevices().find((candidate) => candidate.id === choice.deviceId);
  if (choice.sampleRate === undefined && device && device.defaultSampleRate !== VOICE_SAMPLE_RATE) {
    rates.push(device.defaultSampleRate);
  }
  let lastError: unknown;
  for (const rate of rates) {
    try {
      const stream = create(audio, {
        channelCount: 1,
        sampleFormat: 16,
        sampleRate: rate,
        deviceId: choice.deviceId ?? -1,
        framesPerBuffer: Math.round((rate * BUFFER_MS) / 1000),
        closeOnError: true,
      });
      return { stream, rate };
    } catch (error) {
      lastError = error;
    }
  }
  throw deviceError(what, lastError);
}

/**
 * Starts an input stream: its sound goes to `onAudio` while it is still the one in use; its
 * first failure (a device that vanishes ends up here) lets it go, then is reported.
 */
function followInput(
  stream: IoStreamRead,
  current: () => IoStreamRead | undefined,
  onAudio: (pcm: Buffer) => void,
  onError: (error: Error) => void,
  release: () => void,
): void {
  stream.on('data', (data: Buffer) => {
    if (current() === stream) onAudio(data);
  });
  stream.on('error', (error: Error) => {
    if (current() !== stream) return;
    release();
    onError(error);
  });
  stream.start();
}

/** The microphone, delivering PCM16 mono at 24 kHz whatever the device's own rate. */
export class NativeAudioSource implements AudioSource {
  private stream: IoStreamRead | undefined;

  constructor(
    private readonly choice: DeviceChoice = {},
    private readonly backend: AudioBackend<Naudiodon> = defaultAudioBackend,
  ) {}

  start(onAudio: (pcm: Buffer) => void, onError: (error: Error) => void): void {
    const { stream, rate } = openStream('microphone', this.choice, this.backend, (audio, options) =>
      audio.AudioIO({ inOptions: options }),
    );
    const resampler = new Resampler(rate);
    this.stream = stream;
    followInput(
      stream,
      () => this.stream,
      (data) => onAudio(resampler.push(data)),
      onError,
      () => (this.stream = undefined),
    );
  }

  stop(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    return stream ? quit(stream) : Promise.resolve();
  }
}

/**
 * The microphone as an interview is recorded (issue #23): PCM16 at the rate and channels asked
 * for, as the device gives them, never resampled (the recording keeps what was heard).
 */
export class NativeRecordingSource {
  private stream: IoStreamRead | undefined;

  constructor(
    private readonly choice: { deviceId?: number | undefined; sampleRate: number; channels: 1 | 2 },
    private readonly backend: AudioBackend<Naudiodon> = defaultAudioBackend,
  ) {}

  start(onAudio: (pcm: Buffer) => void, onError: (error: Error) => void): void {
    let stream: IoStreamRead;
    try {
      stream = this.backend.module().AudioIO({
        inOptions: {
          channelCount: this.choice.channels,
          sampleFormat: 16,
          sampleRate: this.choice.sampleRate,
          deviceId: this.choice.deviceId ?? -1,
          framesPerBuffer: Math.round((this.choice.sampleRate * BUFFER_MS) / 1000),
          closeOnError: true,
        },
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new VerbatimError(
        'internal',
        `The microphone could not record at ${this.choice.sampleRate / 1000} kHz ${this.choice.channels === 2 ? 'in stereo' : 'in mono'} (${detail}). Pick another quality, or another input.`,
      );
    }
    this.stream = stream;
    // A device unplugged mid-recording: said once; what was recorded is kept by the caller.
    followInput(
      stream,
      () => this.stream,
      onAudio,
      onError,
      () => (this.stream = undefined),
    );
  }

  stop(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    return stream ? quit(stream) : Promise.resolve();
  }
}

/**
 * The speaker. write() follows the stream's backpressure; flush() aborts the device stream so
 * what it holds is thrown away at once (PortAudio has no "drop buffered" call), and the next
 * write opens a new one.
 */
export class NativeAudioSink implements AudioSink {
  private stream: IoStreamWrite | undefined;
  private resampler: Resampler | undefined;

  constructor(
    private readonly choice: DeviceChoice = {},
    private readonly onError: (error: Error) => void = () => undefined,
    private readonly backend: AudioBackend<Naudiodon> = defaultAudioBackend,
  ) {}

  write(pcm: Buffer): boolean {
    const stream = this.open();
    const audio = this.resampler ? this.resampler.push(pcm) : pcm;
    return stream.write(audio);
  }

  drained(): Promise<void> {
    const stream = this.stream;
    if (!stream) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        stream.off('drain', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
    });
  }

  flush(): void {
    const stream = this.stream;
    this.stream = undefined;
    stream?.abort();
  }

  async close(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    if (!stream) return;
    await new Promise<void>((resolve) => {
      stream.end(() => resolve());
      // A stuck device must not hold the app: give it a moment to play out, then let go.
      setTimeout(resolve, 1000).unref();
    });
    await quit(stream);
  }

  private open(): IoStreamWrite {
    if (this.stream) return this.stream;
    const { stream, rate } = openStream('speaker', this.choice, this.backend, (audio, options) =>
      audio.AudioIO({ outOptions: options }),
    );
    this.resampler = rate === VOICE_SAMPLE_RATE ? undefined : new Resampler(VOICE_SAMPLE_RATE, 1, rate);
    stream.on('error', (error: Error) => {
      if (this.stream !== stream) return;
      this.stream = undefined;
      this.onError(error);
    });
    stream.start();
    this.stream = stream;
    return stream;
  }
}

/** Stops a stream, bounded in time: a device that went away may never call back. */
function quit(stream: IoStreamRead | IoStreamWrite): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 1000);
    timer.unref();
    stream.quit(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The assistant's devices over a backend: an unplugged device lists as gone, not as a crash,
 * and a backend that cannot load says so through unavailable() instead of failing later.
 */
export function nativeAssistantAudioOf(backend: AudioBackend<Naudiodon>): AssistantAudio {
  return {
    unavailable: () => backend.unavailable(),
    devices: () => {
      try {
        return listAudioDevices(backend);
      } catch {
        return [];
      }
    },
    source: (deviceId) => new NativeAudioSource({ deviceId: deviceId ?? undefined }, backend),
    sink: (deviceId, onError) => new NativeAudioSink({ deviceId: deviceId ?? undefined }, onError, backend),
  };
}

/**
 * The inputs interviews are recorded from (issue #23), the system's default first (PortAudio
 * names it per host API), each offered at the rates Verbatim records at, its own rate first.
 * A rate the device refuses is said when the recording starts.
 */
export function nativeRecordingInputOf(backend: AudioBackend<Naudiodon>): RecordingInput {
  return {
    unavailable: () => backend.unavailable(),
    devices: () => {
      let audio: Naudiodon;
      let devices: AudioDevice[];
      try {
        audio = backend.module();
        devices = listAudioDevices(backend).filter((device) => device.inputs > 0);
      } catch {
        return [];
      }
      let defaultId: number | undefined;
      try {
        const hosts = audio.getHostAPIs();
        defaultId = hosts.HostAPIs[hosts.defaultHostAPI]?.defaultInput;
      } catch {
        defaultId = undefined;
      }
      return devices
        .map((device) => ({
          id: device.id,
          name: device.name,
          inputs: device.inputs,
          defaultSampleRate: device.defaultSampleRate,
          sampleRates: [...recordingRates].sort(
            (a, b) => Number(b === device.defaultSampleRate) - Number(a === device.defaultSampleRate),
          ),
          isDefault: device.id === defaultId,
        }))
        .sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
    },
    open: (choice) =>
      new NativeRecordingSource(
        { deviceId: choice.deviceId ?? undefined, sampleRate: choice.sampleRate, channels: choice.channels },
        backend,
      ),
  };
}

/** The desktop app's assistant devices: PortAudio. */
export const nativeAssistantAudio: AssistantAudio = nativeAssistantAudioOf(defaultAudioBackend);
