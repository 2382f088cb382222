import type { RecorderStatus, RecordingDevice } from '../../../shared/recording';

/** What the Record view's form holds: the input, mono or stereo, and the rate. */
export interface ChoiceDraft {
  deviceId: number | null;
  channels: 1 | 2;
  sampleRate: number;
}

/**
 * The choice made sound for the devices there are: the device chosen if it is still connected,
 * else the system's default (first); stereo only where the device has two inputs; a rate the
 * device is offered at, its own first.
 */
export function defaultChoice(devices: readonly RecordingDevice[], draft: ChoiceDraft): ChoiceDraft {
  const device = devices.find((candidate) => candidate.id === draft.deviceId) ?? devices[0];
  if (!device) return { deviceId: null, channels: 1, sampleRate: draft.sampleRate };
  const sampleRate = device.sampleRates.includes(draft.sampleRate)
    ? draft.sampleRate
    : (device.sampleRates[0] ?? draft.sampleRate);
  return { deviceId: device.id, channels: device.inputs >= 2 ? draft.channels : 1, sampleRate };
}

/** "0:07", "12:04", "1:02:03": elapsed time as a recorder shows it. */
export function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds % 60)}` : `${minutes}:${pad(seconds % 60)}`;
}

/** "48 kHz", "44.1 kHz". */
export function rateLabel(rate: number): string {
  return `${(rate / 1000).toLocaleString('en-US')} kHz`;
}

/** Where the recorder is, as the journalist sees it at a glance. */
export type RecorderPhase = 'ready' | 'recording' | 'paused' | 'stopped';

/** Ready before a recording, Stopped once one has been made (its offer is shown), else main's state. */
export function recorderPhase(status: Pick<RecorderStatus, 'state' | 'recording'>): RecorderPhase {
  if (status.state !== 'idle') return status.state;
  return status.recording ? 'stopped' : 'ready';
}

export const phaseLabels: Record<RecorderPhase, string> = {
  ready: 'Ready',
  recording: 'Recording',
  paused: 'Paused',
  stopped: 'Stopped',
};
