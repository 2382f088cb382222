import { VerbatimError } from '../../shared/errors';
import type { Handlers } from '../../shared/ipc/contract';
import type { recorderContract } from '../../shared/ipc/recorder-contract';
import type { Services } from '../core/app-services';
import { defaultSettings } from '../../shared/settings';
import type { EmitEvent } from './emit-event';
import type { IDisposable } from '../base/lifecycle';

type RecorderHandlers = Pick<Handlers, keyof typeof recorderContract>;

/** The options a recording is transcribed with: the preset's, one speaker per channel when stereo. */
export function recordingOptions(preset: Record<string, unknown>, channels: number): Record<string, unknown> {
  if (channels !== 2) return preset;
  // Multichannel transcription labels each channel as its speaker; the service refuses both at once.
  const { speaker_labels: _labels, speakers_expected: _expected, ...rest } = preset;
  return { ...rest, multichannel: true };
}

export function createRecorderHandlers(services: Services): RecorderHandlers {
  const { recorder } = services;
  return {
    'recorder.devices': () => Promise.resolve(recorder.devices()),
    'recorder.status': () => Promise.resolve(recorder.status()),
    'recorder.start': (choice) => recorder.start(choice),
    'recorder.pause': () => Promise.resolve(recorder.pause()),
    'recorder.resume': () => Promise.resolve(recorder.resume()),
    'recorder.stop': () => recorder.stop(),
    'recorder.mark': ({ note }) => Promise.resolve(recorder.mark(note)),
    'recorder.noteMark': ({ id, note }) => Promise.resolve(recorder.noteMark(id, note)),
    'recorder.freeSpace': async () => ({ freeBytes: await recorder.freeSpace() }),
    'recordings.list': () => services.core.recordings.list(),
    'recordings.transcribe': async ({ id, preset, title }) => {
      const recording = await services.core.recordings.get(id);
      if (recording.status === 'recording')
        throw new VerbatimError('conflict', 'This recording is still going. Stop it first.');
      if (recording.status === 'missing')
        throw new VerbatimError(
          'not_found',
          `The file of this recording is no longer at ${recording.path}. Put it back there to transcribe it.`,
        );
      if (recording.transcriptId)
        throw new VerbatimError('conflict', 'This recording has been sent to be transcribed already.');
      const settings = await services.settings.get();
      const options = // The default presets too, for settings written before one was added ("Phone call").
        [...settings.presets, ...defaultSettings.presets].find(
          (candidate) => candidate.name === preset,
        )?.options;
      if (!options) throw new VerbatimError('not_found', `There is no preset called "${preset}" any more.`);
      const withGlossaries = await services.core.glossaries.optionsFor(
        recordingOptions({ ...settings.defaultOptions, ...options }, recording.channels),
        { preset },
      );
      const job = await services.core.scheduler.submit({
        source: { kind: 'file', path: recording.path },
        options: withGlossaries,
        region: settings.region,
        ...(title ? { title } : {}),
      });
      // The scheduler has linked the recording to its transcript, as for any file sent.
      return { transcriptId: job.id };
    },
  };
}

/** Forwards the recorder's status and level to the UI; returns the unsubscribe. */
export function wireRecorderEvents(services: Services, emit: EmitEvent): IDisposable {
  return services.recorder.events.subscribe((event) => {
    if (event.type === 'status') emit('recorder.status', event.status);
    else emit('recorder.level', { rms: event.rms, peak: event.peak });
  });
}
