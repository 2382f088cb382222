import { CrashSafeWavWriter } from '../core/recording/crash-safe-wav';
import { NativeRecordingSource } from '../platform/native-audio';

/**
 * The capture half of `record`, run as its own process (record.ts forks it): PortAudio prints
 * its banner on the process's standard output when a stream opens, which would break `record
 * --json | jq`; here standard output is the parent's standard error. It writes the crash-safe
 * WAV and tells the parent how far it got; it stops at the frame count asked for, on "stop",
 * on SIGINT or SIGTERM, when the parent goes away, or when the device does, closing the file
 * properly in every case.
 */
export interface CaptureRequest {
  path: string;
  sampleRate: number;
  channels: 1 | 2;
  deviceId?: number | undefined;
  /** Sound bytes to record; undefined records until stopped. */
  bytes?: number | undefined;
}

export type CaptureMessage =
  | { kind: 'started' }
  | { kind: 'done'; bytes: number; lost?: string }
  | { kind: 'failed'; message: string; code?: string };

/** Sends a message; resolves once it has left, so disconnecting after it never drops it. */
function send(message: CaptureMessage): Promise<void> {
  return new Promise((resolveSent) => {
    if (!process.send) return resolveSent();
    process.send(message, undefined, {}, () => resolveSent());
  });
}

async function capture(request: CaptureRequest): Promise<void> {
  const format = { sampleRate: request.sampleRate, channels: request.channels };
  const writer = await CrashSafeWavWriter.create(request.path, format);
  const blockAlign = request.channels * 2;
  const wanted = request.bytes ?? Infinity;
  const source = new NativeRecordingSource({ ...format, deviceId: request.deviceId });
  let lost: string | undefined;
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
  await send({ kind: 'done', bytes, ...(lost === undefined ? {} : { lost }) });
}

if (process.send && process.argv[2]) {
  capture(JSON.parse(process.argv[2]) as CaptureRequest).then(
    () => process.disconnect(),
    async (error: unknown) => {
      const code = (error as { code?: unknown }).code;
      await send({
        kind: 'failed',
        message: error instanceof Error ? error.message : 'the recording could not start',
        ...(typeof code === 'string' ? { code } : {}),
      });
      process.disconnect();
    },
  );
}
