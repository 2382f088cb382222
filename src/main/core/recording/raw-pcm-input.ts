import { VerbatimError } from '../../../shared/errors';
import { systemClock, type Clock } from '../../base/clock';
import type { IDisposable } from '../../base/lifecycle';
import type { RecordingStream, RecordingInput } from './recorder';

const chunkMs = 50;

/**
 * A recording input made of raw PCM16 mono (issue #23): the web host records from it (named by
 * VERBATIM_RECORD_INPUT), as the browser has no sound card here, and so do the recorder's tests.
 * It plays `pcm` in 50 ms chunks, `speed` times faster than real time, then silence, as a
 * microphone left open would, or (`unplugged`) fails as a device pulled out mid-recording does;
 * a stereo recording hears it on both channels.
 */
export function rawPcmRecordingInput(options: {
  pcm: Buffer;
  sampleRate: number;
  speed?: number;
  /** Paces the chunks; a test passes its own. */
  clock?: Clock;
  unplugged?: boolean;
}): RecordingInput {
  const clock = options.clock ?? systemClock;
  const speed = options.speed ?? 1;
  return {
    devices: () => [
      {
        id: 0,
        name: 'Recording (raw PCM file)',
        inputs: 2,
        defaultSampleRate: options.sampleRate,
        sampleRates: [options.sampleRate],
        isDefault: true,
      },
    ],
    open(choice): RecordingStream {
      if (choice.sampleRate !== options.sampleRate)
        throw new VerbatimError(
          'invalid_input',
          `This input records at ${options.sampleRate / 1000} kHz only. Pick that rate.`,
        );
      const monoChunk = Math.round((options.sampleRate * chunkMs) / 1000) * 2;
      let pacing: IDisposable | undefined;
      return {
        start(onAudio, onError) {
          let offset = 0;
          const tick = (): void => {
            if (options.unplugged && offset >= options.pcm.length) {
              pacing = undefined;
              onError(new Error('the device was disconnected'));
              return;
            }
            let mono = options.pcm.subarray(offset, offset + monoChunk);
            if (mono.length < monoChunk) mono = Buffer.concat([mono, Buffer.alloc(monoChunk - mono.length)]);
            offset += monoChunk;
            void onAudio(choice.channels === 2 ? toStereo(mono) : Buffer.from(mono));
            pacing = clock.setTimeout(tick, chunkMs / speed);
          };
          pacing = clock.setTimeout(tick, chunkMs / speed);
        },
        stop() {
          pacing?.dispose();
          pacing = undefined;
          return Promise.resolve();
        },
      };
    },
  };
}

function toStereo(mono: Buffer): Buffer {
  const stereo = Buffer.alloc(mono.length * 2);
  for (let i = 0; i < mono.length; i += 2) {
    mono.copy(stereo, i * 2, i, i + 2);
    mono.copy(stereo, i * 2 + 2, i, i + 2);
  }
  return stereo;
}
