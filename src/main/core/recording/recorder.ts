import { mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import type {
  RecorderStatus,
  RecorderWarning,
  RecordingDevice,
  RecordingMark,
  RecordingChoice,
  Recording,
} from '../../../shared/recording';
import { systemClock, type Clock } from '../../base/clock';
import { noopDisposable, type IDisposable } from '../../base/lifecycle';
import { Signal } from '../../base/signal';
import { CrashSafeWavWriter, isDiskFull } from './crash-safe-wav';
import type { PcmFormat } from '../media/wav-header';
import type { Microphone } from './microphone';
import { microphoneRefused, type MicrophoneAccess } from '../voice/microphone-access';
import type { RecordingMarks } from '../library/recording-marks';
import type { Recordings } from '../library/recordings';

/**
 * An open input: PCM16, interleaved, at the format it was opened with. `onAudio` answers when
 * the chunk is on its way to disk (the OS has it), or undefined when it is not kept (paused).
 */
export interface RecordingStream {
  start(onAudio: (pcm: Buffer) => Promise<void> | undefined, onError: (error: Error) => void): void;
  stop(): Promise<void>;
}

/** The sound card (PortAudio in the app), or a raw PCM file in the web host and the tests. */
export interface RecordingInput {
  /** Why nothing can be recorded here, in the journalist's words; undefined when it can. */
  unavailable?(): string | undefined;
  /** The OS's permission to hear the microphone, where the OS asks (macOS); absent: granted. */
  microphoneAccess?(): Promise<MicrophoneAccess>;
  /** The inputs, the system's default first. */
  devices(): RecordingDevice[];
  open(choice: RecordingChoice): RecordingStream;
}

/** Where nothing can record (the CLI's library, a host without audio): says so. */
export const noRecordingInput: RecordingInput = {
  unavailable: () => 'Recording is not available here: this computer has no sound input Verbatim can use.',
  devices: () => [],
  open: () => {
    throw new VerbatimError('internal', 'Recording is not available here.');
  },
};

export type RecorderEvent =
  { type: 'status'; status: RecorderStatus } | { type: 'level'; rms: number; peak: number };

export interface RecorderOptions {
  input: RecordingInput;
  recordings: Recordings;
  marks: RecordingMarks;
  /** Where recordings are written: the data folder's `recordings`. */
  folder: () => string;
  microphone: Microphone;
  /** Bytes free on the disk holding `folder` (fs.statfs). */
  freeBytes: (folder: string) => Promise<number>;
  /** The file's date, the status tick, the disk check and the writer's header refresh; a test passes its own. */
  clock?: Clock;
  /** Unexpected failures nobody awaits (a status tick): logged, never swallowed. */
  onUnexpected?: (error: unknown) => void;
}

/** Quieter than this (-50 dBFS) is silence; louder than this is clipping. */
const silencePeak = 0.003;
const clippingSample = 32_700;
/** Silent this long, the journalist is told: a muted or wrong input loses the interview. */
export const silenceWarningMs = 10_000;
/** A clip is said for this long after it, so a single one is seen. */
const clippingHoldMs = 2_000;
/** Less disk than this many minutes of the recording's sound, the journalist is told. */
export const lowDiskMinutes = 10;
const levelEveryMs = 100;
const diskEveryTicks = 5;

/** "2026-11-25 09-14-03.wav": sorted by time, no character a file system refuses. */
export function recordingFileName(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}-${pad(now.getMinutes())}-${pad(now.getSeconds())}.wav`;
}

/** "3 min 12 s", "45 s": how long, as said to a journalist. */
function spoken(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
}

/** Peak and RMS of interleaved PCM16, each 0..1. */
export function levelOf(pcm: Buffer): { rms: number; peak: number } {
  const samples = Math.floor(pcm.length / 2);
  if (samples === 0) return { rms: 0, peak: 0 };
  let peak = 0;
  let squares = 0;
  for (let i = 0; i < samples; i++) {
    const sample = pcm.readInt16LE(i * 2);
    const magnitude = Math.abs(sample);
    if (magnitude > peak) peak = magnitude;
    squares += sample * sample;
  }
  return { rms: Math.sqrt(squares / samples) / 32_768, peak: peak / 32_768 };
}

/** Why a recording stopped on its own: its device went away, or its file refused a write. */
type EndCause = { reason: 'device-lost'; message: string } | { reason: 'write-failed'; error: Error };

interface Session {
  recording: Recording;
  format: PcmFormat;
  deviceName: string;
  writer: CrashSafeWavWriter;
  stream: RecordingStream;
  /** Sound bytes handed to the writer (pauses leave nothing); once stopped, the bytes it kept. */
  bytes: number;
  paused: boolean;
  silentMs: number;
  lastClipMs: number | undefined;
  sinceLevelMs: number;
  lowDisk: string | undefined;
  ticking: IDisposable;
  stopping: Promise<RecorderStatus> | undefined;
}

/**
 * Records an interview from an input into a crash-safe WAV registered in the library (issue
 * #23): pause and resume, marked moments, a live level, and warnings for silence, clipping and a
 * disk about to fill. One recording at a time, and not while the assistant holds the microphone.
 * A device that goes away, or a disk that refuses a write, stops the recording with everything
 * before it kept, and the status says so.
 */
export class Recorder implements IDisposable {
  readonly events = new Signal<RecorderEvent>();
  private session: Session | undefined;
  private last: { recording: Recording; ended: RecorderStatus['ended'] } | undefined;
  private readonly clock: Clock;

  constructor(private readonly options: RecorderOptions) {
    this.clock = options.clock ?? systemClock;
  }

  devices(): RecordingDevice[] {
    return this.options.input.devices();
  }

  /** Bytes free on the disk recordings go to (its folder made if need be, as a start would). */
  async freeSpace(): Promise<number> {
    const folder = this.options.folder();
    await mkdir(folder, { recursive: true });
    return this.options.freeBytes(folder);
  }

  status(): RecorderStatus {
    const session = this.session;
    const unavailable = this.options.input.unavailable?.();
    if (!session) {
      return {
        state: 'idle',
        ...(unavailable ? { unavailable } : {}),
        recording: this.last?.recording ?? null,
        deviceName: null,
        elapsedMs: this.last?.recording.durationMs ?? 0,
        marks: this.last ? this.options.marks.of(this.last.recording.id) : [],
        warnings: [],
        ended: this.last?.ended ?? null,
        microphoneHeldBy: this.options.microphone.heldBy() ?? null,
      };
    }
    return {
      state: session.paused ? 'paused' : 'recording',
      recording: session.recording,
      deviceName: session.deviceName,
      elapsedMs: this.elapsedMs(session),
      marks: this.options.marks.of(session.recording.id),
      warnings: this.warnings(session),
      ended: null,
      microphoneHeldBy: 'recorder',
    };
  }

  async start(choice: RecordingChoice): Promise<RecorderStatus> {
    if (this.session) throw new VerbatimError('conflict', 'A recording is already running. Stop it first.');
    const unavailable = this.options.input.unavailable?.();
    if (unavailable) throw new VerbatimError('internal', unavailable);
    const devices = this.options.input.devices();
    const device =
      choice.deviceId === null ? devices[0] : devices.find((candidate) => candidate.id === choice.deviceId);
    if (!device)
      throw new VerbatimError('not_found', 'That input is not connected any more. Pick another one.');
    if (choice.channels > Math.max(1, device.inputs))
      throw new VerbatimError('invalid_input', `${device.name} has one input channel: record in mono.`);
    const access = this.options.input.microphoneAccess
      ? await this.options.input.microphoneAccess()
      : 'granted';
    if (access !== 'granted') throw microphoneRefused();
    // Another start may have got here first while the OS was asking.
    if (this.session) throw new VerbatimError('conflict', 'A recording is already running. Stop it first.');
    this.options.microphone.take('recorder');
    const format: PcmFormat = { sampleRate: choice.sampleRate, channels: choice.channels };
    let writer: CrashSafeWavWriter | undefined;
    let recording: Recording | undefined;
    let path: string | undefined;
    try {
      const folder = this.options.folder();
      await mkdir(folder, { recursive: true });
      path = freePath(folder, recordingFileName(new Date(this.clock.now())));
      writer = await CrashSafeWavWriter.create(path, format, { clock: this.clock });
      recording = await this.options.recordings.start(path, format);
      const stream = this.options.input.open({ ...choice, deviceId: device.id });
      const session: Session = {
        recording,
        format,
        deviceName: device.name,
        writer,
        stream,
        bytes: 0,
        paused: false,
        silentMs: 0,
        lastClipMs: undefined,
        sinceLevelMs: 0,
        lowDisk: undefined,
        ticking: noopDisposable,
        stopping: undefined,
      };
      this.session = session;
      this.last = undefined;
      stream.start(
        (pcm) => this.onAudio(session, pcm),
        (error) =>
          void this.end(session, {
            reason: 'device-lost',
            message: `${device.name} stopped (${error.message}). The recording stopped; everything before it is kept.`,
          }),
      );
      let ticks = 0;
      session.ticking = this.clock.setInterval(() => {
        ticks += 1;
        this.announce();
        if (ticks % diskEveryTicks === 1) void this.checkDisk(session);
      }, 1000);
      void this.checkDisk(session);
    } catch (error) {
      this.session = undefined;
      this.options.microphone.release('recorder');
      // Nothing is left of a recording that never started: no row, no empty file.
      if (writer) {
        await writer.close().catch(() => undefined);
        await rm(path!, { force: true });
      }
      if (recording) await this.options.recordings.abandon(recording.id);
      throw error instanceof VerbatimError
        ? error
        : new VerbatimError('internal', `The recording could not start: ${(error as Error).message}`);
    }
    return this.announce();
  }

  pause(): RecorderStatus {
    const session = this.running();
    session.paused = true;
    return this.announce();
  }

  resume(): RecorderStatus {
    const session = this.running();
    session.paused = false;
    session.silentMs = 0;
    return this.announce();
  }

  /** Marks "this matters" at the moment just recorded; a word can be added now or later. */
  mark(note = ''): RecordingMark {
    const session = this.running();
    const mark = this.options.marks.add(session.recording.id, this.elapsedMs(session), note);
    this.announce();
    return mark;
  }

  /** The word of a mark, while recording or after. */
  noteMark(id: number, note: string): RecordingMark {
    const mark = this.options.marks.setNote(id, note);
    this.announce();
    return mark;
  }

  stop(): Promise<RecorderStatus> {
    const session = this.session;
    if (!session) return Promise.resolve(this.status());
    return this.end(session, null);
  }

  dispose(): void {
    const session = this.session;
    if (session) this.end(session, null).catch((error: unknown) => this.options.onUnexpected?.(error));
  }

  private running(): Session {
    if (!this.session) throw new VerbatimError('conflict', 'Nothing is being recorded.');
    return this.session;
  }

  private elapsedMs(session: Session): number {
    const bytesPerSecond = session.format.sampleRate * session.format.channels * 2;
    return Math.floor((session.bytes / bytesPerSecond) * 1000);
  }

  private onAudio(session: Session, pcm: Buffer): Promise<void> | undefined {
    if (this.session !== session || session.stopping) return undefined;
    const bytesPerMs = (session.format.sampleRate * session.format.channels * 2) / 1000;
    const chunkMs = pcm.length / bytesPerMs;
    const level = levelOf(pcm);
    session.sinceLevelMs += chunkMs;
    if (session.sinceLevelMs >= levelEveryMs) {
      session.sinceLevelMs = 0;
      this.events.emit({ type: 'level', ...level });
    }
    if (session.paused) return undefined;
    const warningsBefore = this.warningKinds(session);
    session.silentMs = level.peak < silencePeak ? session.silentMs + chunkMs : 0;
    session.bytes += pcm.length;
    if (level.peak * 32_768 >= clippingSample) session.lastClipMs = this.elapsedMs(session);
    const written = session.writer.append(pcm).catch((error: unknown) => {
      void this.end(session, { reason: 'write-failed', error: error as Error });
    });
    if (this.warningKinds(session) !== warningsBefore) this.announce();
    return written;
  }

  private warnings(session: Session): { kind: RecorderWarning; message: string }[] {
    const warnings: { kind: RecorderWarning; message: string }[] = [];
    if (session.silentMs >= silenceWarningMs)
      warnings.push({
        kind: 'silence',
        message: `Nothing heard for ${spoken(session.silentMs)}. Is the microphone on and the right input chosen?`,
      });
    if (session.lastClipMs !== undefined && this.elapsedMs(session) - session.lastClipMs < clippingHoldMs)
      warnings.push({
        kind: 'clipping',
        message: 'Too loud: the sound is clipping. Move the microphone away or turn the input down.',
      });
    if (session.lowDisk) warnings.push({ kind: 'low-disk', message: session.lowDisk });
    return warnings;
  }

  private warningKinds(session: Session): string {
    return this.warnings(session)
      .map((warning) => warning.kind)
      .join();
  }

  private async checkDisk(session: Session): Promise<void> {
    try {
      const free = await this.options.freeBytes(this.options.folder());
      const bytesPerMinute = session.format.sampleRate * session.format.channels * 2 * 60;
      const minutes = Math.floor(free / bytesPerMinute);
      const before = session.lowDisk;
      session.lowDisk =
        minutes < lowDiskMinutes
          ? `The disk has room for about ${minutes} more minute${minutes === 1 ? '' : 's'} of recording. Free some space, or stop soon.`
          : undefined;
      if (session.lowDisk !== before && this.session === session) this.announce();
    } catch (error) {
      this.options.onUnexpected?.(error);
    }
  }

  /**
   * Stops the input, closes the file and finishes the recording: once, whoever asks. Its length
   * is what the file kept (a full disk refuses the end of what was heard), and a recording that
   * stopped on its own says why and how much of it is kept.
   */
  private end(session: Session, cause: EndCause | null): Promise<RecorderStatus> {
    session.stopping ??= (async () => {
      session.ticking.dispose();
      await session.stream.stop();
      let closeFailure: string | undefined;
      try {
        session.bytes = await session.writer.close();
      } catch (error) {
        closeFailure = (error as Error).message;
        session.bytes = session.writer.bytes;
      }
      const durationMs = this.elapsedMs(session);
      // The library shares the full disk: its note of the end may fail, never the stop. The row
      // stays `recording`, and the next start repairs and lists it from the file (recover()).
      const recording = await this.options.recordings
        .finish(session.recording.id, durationMs)
        .catch((error: unknown) => {
          this.options.onUnexpected?.(error);
          return { ...session.recording, durationMs };
        });
      this.session = undefined;
      this.options.microphone.release('recorder');
      const kept = spoken(recording.durationMs);
      const ended: RecorderStatus['ended'] =
        cause?.reason === 'write-failed'
          ? {
              reason: 'write-failed',
              message: isDiskFull(cause.error)
                ? `The disk is full: the recording stopped after ${kept}, and all ${kept} are kept in ${recording.path}. Free some space before recording again.`
                : `The recording could not be written (${cause.error.message}). It stopped after ${kept}, and all ${kept} are kept.`,
            }
          : (cause ??
            (closeFailure
              ? {
                  reason: 'write-failed',
                  message: `The end of the recording could not be written (${closeFailure}); ${kept} are kept.`,
                }
              : null));
      this.last = { recording, ended };
      return this.announce();
    })();
    return session.stopping;
  }

  private announce(): RecorderStatus {
    const status = this.status();
    this.events.emit({ type: 'status', status });
    return status;
  }
}

/** The name asked for, or "name (2).wav" and so on when a recording of the same second is there. */
function freePath(folder: string, name: string): string {
  let path = join(folder, name);
  for (let n = 2; existsSync(path); n++) path = join(folder, name.replace(/\.wav$/, ` (${n}).wav`));
  return path;
}
