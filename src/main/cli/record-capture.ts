import { VerbatimError, errorCodes, type ErrorCode } from '../../shared/errors';
import type { RecordingDevice } from '../../shared/recording';
import { CrashSafeWavWriter, isDiskFull } from '../core/recording/crash-safe-wav';
import { defaultAudioBackend, nativeRecordingInputOf, NativeRecordingSource } from '../audio/native-audio';

/**
 * The sound half of `record`, run as its own process (record.ts forks it): PortAudio prints its
 * banner and each stream's settings on the process's standard output, which would break
 * `record --json | jq` and clutter a terminal; the parent shows this process's output only
 * with --verbose. It lists the inputs, or writes the crash-safe WAV and tells the parent how
 * far it got; it stops at the frame count asked for, on "stop", on SIGINT or SIGTERM, when the
 * parent goes away, or when the device does, closing the file properly in every case.
 */
export interface CaptureRequest {
  kind: 'record';
  path: string;
  sampleRate: number;
  channels: 1 | 2;
  deviceId?: number | undefined;
  /** Sound bytes to record; undefined records until stopped. */
  bytes?: number | undefined;
}

export type SoundRequest = CaptureRequest | { kind: 'devices' };

export type CaptureMessage =
  | { kind: 'devices'; devices: RecordingDevice[] }
  | { kind: 'started' }
  | { kind: 'done'; bytes: number; lost?: string; diskFull?: boolean }
  | { kind: 'failed'; message: string; code?: ErrorCode };

const input = nativeRecordingInputOf(defaultAudioBackend);

/** Sends a message; resolves once it has left, so disconnecting after it never drops it. */
function send(message: CaptureMessage): Promise<void> {
  return new Promise((resolveSent) => {
    if (!process.send) return resolveSent();
    process.send(message, undefined, {}, () => resolveSent());
  });
}

/** The inputs, or why there are none to record from here. */
function inputDevices(): RecordingDevice[] {
  const unavailable = input.unavailable?.();
  if (unavailable) throw new VerbatimError('internal', unavailable);
  return input.devices();
}

/** `0 "default" (the system's default); 4 "USB microphone"`: the numbers --device takes. */
function deviceChoices(devices: RecordingDevice[]): string {
  return devices
    .map((device) => `${device.id} "${device.name}"${device.isDefault ? " (the system's default)" : ''}`)
    .join('; ');
}

/** Refuses a device number no input has: PortAudio would record from the default instead. */
function checkDevice(deviceId: number | undefined): void {
  if (deviceId === undefined) return;
  const devices = inputDevices();
  if (devices.some((device) => device.id === deviceId)) return;
  throw new VerbatimError(
    'invalid_input',
    devices.length === 0
      ? `There is no input device ${deviceId}: this computer has no input to record from. Plug in a microphone, then try again.`
      : `There is no input device ${deviceId}. Give --device one of these: ${deviceChoices(devices)}. Or leave it out to record from the system's default.`,
  );
}

async function capture(request: CaptureRequest): Promise<void> {
  checkDevice(request.deviceId);
  const format = { sampleRate: request.sampleRate, channels: request.channels };
  const writer = await CrashSafeWavWriter.create(request.path, format);
  const blockAlign = request.channels * 2;
  const wanted = request.bytes ?? Infinity;
  const source = new NativeRecordingSource({ ...format, deviceId: request.deviceId });
  let lost: string | undefined;
  let diskFull = false;
  await new Promise<void>((resolveStop) => {
    let stopped = false;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      resolveStop();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    process.on('disconnect', stop);
    process.on('message', (message) => {
      if (message === 'stop') stop();
    });
    try {
      source.start(
        (pcm) => {
          if (stopped) return;
          const room = wanted - writer.bytes;
          const chunk = pcm.length > room ? pcm.subarray(0, room - (room % blockAlign)) : pcm;
          writer.append(chunk).then(
            () => {
              if (writer.bytes >= wanted) stop();
            },
            (error: unknown) => {
              lost = error instanceof Error ? error.message : 'the file could not be written';
              diskFull = isDiskFull(error);
              stop();
            },
          );
        },
        (error) => {
          lost = error.message;
          stop();
        },
      );
      void send({ kind: 'started' });
    } catch (error) {
      lost = error instanceof Error ? error.message : 'the input could not be opened';
      stop();
    }
  });
  await source.stop();
  const bytes = await writer.close();
  await send({
    kind: 'done',
    bytes,
    ...(lost === undefined ? {} : { lost }),
    ...(diskFull ? { diskFull } : {}),
  });
}

async function answer(request: SoundRequest): Promise<void> {
  if (request.kind === 'devices') await send({ kind: 'devices', devices: inputDevices() });
  else await capture(request);
}

if (process.send && process.argv[2]) {
  answer(JSON.parse(process.argv[2]) as SoundRequest).then(
    () => process.disconnect(),
    async (error: unknown) => {
      const code = (error as { code?: unknown }).code;
      await send({
        kind: 'failed',
        message: error instanceof Error ? error.message : 'the recording could not start',
        ...(errorCodes.includes(code as ErrorCode) ? { code: code as ErrorCode } : {}),
      });
      process.disconnect();
    },
  );
}
