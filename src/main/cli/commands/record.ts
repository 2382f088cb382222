import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import { formatRecordedAt } from '../../../shared/display-format';
import { recordingRates, type Recording, type RecordingDevice } from '../../../shared/recording';
import { recordingFileName } from '../../core/recording/recorder';
import { printResult, type CliIo } from '../cli-io';
import { defineCommand } from '../command';
import { dataFolderOf } from '../environment';
import type { CaptureMessage, CaptureRequest, SoundRequest } from '../record-capture';
import { UsageError } from '../usage-error';
import { isLibraryWriteFailure } from '../../core/scheduler/scheduler';

const captureEntry = resolve(import.meta.dirname, '../record-capture.ts');

/**
 * `record`: an interview recorded headless (issue #23) from the default input or the device
 * named, into a crash-safe WAV registered in the library the moment it starts. It stops after
 * --duration seconds of sound (counted in frames, not on the wall clock), on Ctrl+C or SIGTERM,
 * or when the device goes away, and keeps everything recorded in each case.
 */

function whole(text: string | undefined, what: string, allowed?: readonly number[]): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || (allowed && !allowed.includes(value)))
    throw new UsageError(
      allowed
        ? `${what} is one of ${allowed.join(', ')}, not "${text}"`
        : `${what} is a whole number, not "${text}"`,
    );
  return value;
}

/** The sound process as it ran: its child, and what it wrote on standard error unless --verbose. */
interface SoundProcess {
  child: ChildProcess;
  /** Its last line on standard error (a native library's complaint), for an unexpected end. */
  lastComplaint(): string | undefined;
}

/**
 * Starts the sound process (record-capture.ts). Its standard output is PortAudio's debug text
 * ("PortAudio V19.7.0-devel…", "Finishing input…"): shown on our standard error with
 * --verbose, never otherwise; nothing of it reaches our standard output.
 */
function startSoundProcess(request: SoundRequest, verbose: boolean): SoundProcess {
  const child = fork(captureEntry, [JSON.stringify(request)], {
    stdio: ['ignore', verbose ? 2 : 'ignore', verbose ? 2 : 'pipe', 'ipc'],
    execArgv: ['--import', 'tsx'],
  });
  let complaints = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    complaints = (complaints + chunk.toString()).slice(-2000);
  });
  return {
    child,
    lastComplaint: () => complaints.trim().split('\n').pop() || undefined,
  };
}

/** The sound process's outcome: its first message of one of `kinds`, or a failure if it ends first. */
function outcomeOf<Kind extends CaptureMessage['kind']>(
  sound: SoundProcess,
  kinds: readonly Kind[],
): Promise<Extract<CaptureMessage, { kind: Kind | 'failed' }>> {
  return new Promise((resolveOutcome) => {
    sound.child.on('message', (message: CaptureMessage) => {
      if (message.kind === 'failed' || (kinds as readonly string[]).includes(message.kind))
        resolveOutcome(message as Extract<CaptureMessage, { kind: Kind | 'failed' }>);
    });
    // Only heard when no outcome came first (a promise settles once); what it said is told.
    sound.child.on('close', () => {
      const complaint = sound.lastComplaint();
      resolveOutcome({
        kind: 'failed',
        message: `The recorder stopped unexpectedly${complaint ? ` (${complaint})` : ''}. Run the command again with --verbose to see what the sound system said.`,
      });
    });
  });
}

function failure(outcome: Extract<CaptureMessage, { kind: 'failed' }>): VerbatimError {
  return new VerbatimError(outcome.code ?? 'internal', outcome.message);
}

function deviceLine(device: RecordingDevice): string {
  return [
    String(device.id).padStart(4),
    device.name,
    device.inputs >= 2 ? 'mono or stereo' : 'mono',
    ...(device.isDefault ? ["the system's default"] : []),
  ].join('  ');
}

async function listDevices(io: CliIo, json: boolean, verbose: boolean): Promise<number> {
  const outcome = await outcomeOf(startSoundProcess({ kind: 'devices' }, verbose), ['devices']);
  if (outcome.kind === 'failed') throw failure(outcome);
  const { devices } = outcome;
  printResult(io, json, devices, () =>
    devices.length === 0
      ? 'No input to record from was found. Plug in a microphone, then list the inputs again.'
      : ['Inputs to record from (record --device N):', ...devices.map(deviceLine)].join('\n'),
  );
  return 0;
}

export const recordCommand = defineCommand({
  name: 'record',
  usage: [
    '[--output FILE.wav] [--device N] [--channels 1|2] [--rate 48000|44100|16000] [--duration S] [--json]',
    '--list-devices [--json]',
  ],
  summary: 'Records an interview into a crash-safe WAV kept with the library (Ctrl+C stops it).',
  options: {
    output: {
      type: 'string',
      valueName: 'FILE.wav',
      description: 'where to write (default: the data folder’s recordings); never replaces a file',
    },
    device: {
      type: 'string',
      valueName: 'N',
      description: 'an input’s number from --list-devices (default: the system’s)',
    },
    'list-devices': { type: 'boolean', description: 'lists the inputs to record from, with their numbers' },
    channels: {
      type: 'string',
      valueName: '1|2',
      description: 'two for a phone adapter with one speaker per channel (default one)',
    },
    rate: {
      type: 'string',
      valueName: 'R',
      description: 'samples per second: 48000 (default), 44100 or 16000',
    },
    duration: { type: 'string', valueName: 'S', description: 'stops after this many seconds of sound' },
    json: { type: 'boolean', description: 'prints the recording (or the inputs) as JSON' },
  },
  takesWords: false,
  async run({ values }, { io, global, openLibrary }) {
    if (values['list-devices']) return listDevices(io, values.json, global.verbose);
    const channels = (whole(values.channels, '--channels', [1, 2]) ?? 1) as 1 | 2;
    const sampleRate = whole(values.rate, '--rate', recordingRates) ?? 48_000;
    const deviceId = whole(values.device, '--device');
    const seconds = values.duration === undefined ? undefined : Number(values.duration);
    if (seconds !== undefined && !(Number.isFinite(seconds) && seconds > 0))
      throw new UsageError(`--duration is a number of seconds above 0, not "${values.duration}"`);
    const folder = join(dataFolderOf(io.env), 'recordings');
    const path = values.output ? resolve(values.output) : join(folder, recordingFileName(new Date()));
    if (!values.output) mkdirSync(folder, { recursive: true });
    else if (!existsSync(dirname(path)))
      throw new VerbatimError(
        'invalid_input',
        `There is no folder ${dirname(path)}. Give --output a file in a folder that exists.`,
      );

    // Refused before anything is registered or started: a recording never replaces a file.
    if (existsSync(path))
      throw new VerbatimError(
        'conflict',
        `${path} is there already; a recording never replaces a file. Give --output another name.`,
      );
    const { recordings } = openLibrary({ showProgress: false }).core;
    await recordings.recover();
    const blockAlign = channels * 2;
    const request: CaptureRequest = {
      kind: 'record',
      path,
      sampleRate,
      channels,
      deviceId,
      bytes: seconds === undefined ? undefined : Math.round(seconds * sampleRate) * blockAlign,
    };
    const sound = startSoundProcess(request, global.verbose);
    const registered = await recordings.start(path, { sampleRate, channels }, sound.child.pid ?? process.pid);
    const forward = (): void => void sound.child.send('stop');
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const outcome = await outcomeOf(sound, ['done']);
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
    if (outcome.kind === 'failed') {
      await recordings.abandon(registered.id);
      throw failure(outcome);
    }
    const durationMs = Math.round((outcome.bytes / blockAlign / sampleRate) * 1000);
    const kept = `${(durationMs / 1000).toFixed(1)} s`;
    const { diskFull, lost } = outcome;
    const finished = await recordings.finish(registered.id, durationMs).catch((error: unknown) => {
      // The library on the same full disk: the file is whole, and the next `recordings`
      // repairs its row from it (its recorder is gone), so the sound is not lost.
      if (diskFull && isLibraryWriteFailure(error))
        throw new VerbatimError(
          'storage',
          `The disk is full: the recording stopped after ${kept}, and all ${kept} are kept in ${path}. The library lists it once there is room: free some space, then run "npm run cli -- recordings".`,
        );
      throw error;
    });
    printResult(io, values.json, finished, () => `Recorded ${kept} to ${path}`);
    if (diskFull)
      throw new VerbatimError(
        'storage',
        `The disk is full: the recording stopped after ${kept}, and all ${kept} are kept in ${path}. Free some space before recording again.`,
      );
    if (lost)
      throw new VerbatimError(
        'internal',
        `The input stopped (${lost}); the ${kept} recorded before it are kept in ${path}.`,
      );
    return 0;
  },
});

/** How a recording's state reads in the list: a file that has gone says so in words. */
const statusWords: Record<Recording['status'], string> = {
  recording: 'recording',
  finished: 'finished',
  recovered: 'recovered',
  missing: 'file missing',
};

function recordingLine(recording: Recording): string {
  return [
    String(recording.id).padStart(4),
    formatRecordedAt(recording.startedAt).padEnd(22),
    `${(recording.durationMs / 1000).toFixed(1).padStart(7)} s`,
    recording.channels === 2 ? 'stereo' : 'mono  ',
    `${recording.sampleRate} Hz`,
    statusWords[recording.status].padEnd(12),
    recording.path,
    ...(recording.transcriptId ? [`transcript ${recording.transcriptId}`] : []),
  ].join('  ');
}

export const recordingsCommand = defineCommand({
  name: 'recordings',
  usage: ['[--json]'],
  summary: 'Lists every recording the library knows, repairing first any a crash cut short.',
  options: { json: { type: 'boolean', description: 'prints the recordings as JSON' } },
  takesWords: false,
  async run({ values }, { io, openLibrary }) {
    const { recordings } = openLibrary({ showProgress: false }).core;
    const repaired = await recordings.recover();
    const list = await recordings.list();
    printResult(io, values.json, list, () =>
      list.length === 0
        ? 'No recordings yet. Record one with: npm run cli -- record --duration 60'
        : [
            ...repaired.map((recording) => `Repaired after a crash: ${recording.path}`),
            ...list.map(recordingLine),
          ].join('\n'),
    );
    return 0;
  },
});
