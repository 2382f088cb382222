import type {
  RecorderStatus,
  Recording,
  RecordingChoice,
  RecordingDevice,
} from '../../../shared/ipc/recorder-contract';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import { defaultChoice, type ChoiceDraft } from './recorder-logic';

const idle: RecorderStatus = {
  state: 'idle',
  recording: null,
  deviceName: null,
  elapsedMs: 0,
  marks: [],
  warnings: [],
  ended: null,
  microphoneHeldBy: null,
};

/** The recorder as the renderer sees it (issue #23): main's status and level, live from its events. */
class RecorderStore {
  status = $state<RecorderStatus>(idle);
  level = $state(0);
  devices = $state<RecordingDevice[]>([]);
  recordings = $state<Recording[]>([]);
  choice = $state<ChoiceDraft>({ deviceId: null, channels: 1, sampleRate: 48_000 });
  error = $state<Problem | undefined>(undefined);
  /** Actions asked for and not yet answered that the recorder's buttons wait for (see `run`). */
  private holding = $state(0);
  /** A start, stop, pause, resume or transcription is on its way: their buttons wait for it. */
  busy = $derived(this.holding > 0);
  /** The transcript just made from a recording, to open from the offer. */
  sent = $state<{ recordingId: number; transcriptId: string } | undefined>(undefined);
  recording = $derived(this.status.state !== 'idle');

  private subscribed = false;
  /** The end of the line of actions: each is sent once the one before it has answered. */
  private queue: Promise<void> = Promise.resolve();

  async load(): Promise<void> {
    if (!this.subscribed) {
      this.subscribed = true;
      api.on('recorder.status', (status) => {
        const stopped = this.status.state !== 'idle' && status.state === 'idle';
        this.status = status;
        if (status.state === 'idle') this.level = 0;
        if (stopped) void this.refreshRecordings();
      });
      api.on('recorder.level', (event) => (this.level = event.peak));
    }
    await this.run('recorder.status', async () => {
      this.status = await api.recorder.status();
      this.devices = await api.recorder.devices();
      this.choice = defaultChoice(this.devices, this.choice);
      this.recordings = await api.recordings.list();
    });
  }

  choose = (change: Partial<ChoiceDraft>): void => {
    this.choice = defaultChoice(this.devices, { ...this.choice, ...change });
  };

  start = (): Promise<void> =>
    this.run('recorder.start', async () => {
      this.sent = undefined;
      this.status = await api.recorder.start(this.choice as RecordingChoice);
    });

  pause = (): Promise<void> =>
    this.run('recorder.pause', async () => void (this.status = await api.recorder.pause()));

  resume = (): Promise<void> =>
    this.run('recorder.resume', async () => void (this.status = await api.recorder.resume()));

  // The status event of the stop refreshes the recordings (load's listener).
  stop = (): Promise<void> =>
    this.run('recorder.stop', async () => void (this.status = await api.recorder.stop()));

  // Main announces the status with the mark in it (`recorder.status`): nothing to ask again.
  // Marks and their words hold no button: each press is a mark of its own, and a word saved as
  // its field is left must not disable the button whose click left it.
  mark = (): Promise<void> =>
    this.run('recorder.mark', async () => void (await api.recorder.mark({ note: '' })), { holds: false });

  noteMark = (id: number, note: string): Promise<void> =>
    this.run('recorder.noteMark', async () => void (await api.recorder.noteMark({ id, note })), {
      holds: false,
    });

  transcribe = (recordingId: number, preset: string): Promise<void> =>
    this.run('recordings.transcribe', async () => {
      const { transcriptId } = await api.recordings.transcribe({ id: recordingId, preset });
      this.sent = { recordingId, transcriptId };
      await this.refreshRecordings();
    });

  private async refreshRecordings(): Promise<void> {
    try {
      this.recordings = await api.recordings.list();
    } catch (error) {
      this.error = caught(error, 'recordings.list');
    }
  }

  /**
   * Runs an action after those asked for before it, so they reach main in the order the
   * journalist gave them: a word typed for a mark, then "Transcribe now" clicked, saves the word
   * first. An action that `holds` disables the recorder's buttons until it is answered, so a
   * double click does not start, stop or transcribe twice.
   */
  private run(context: string, action: () => Promise<void>, { holds = true } = {}): Promise<void> {
    if (holds) this.holding++;
    const task = async (): Promise<void> => {
      this.error = undefined;
      try {
        await action();
      } catch (error) {
        this.error = caught(error, context);
      } finally {
        if (holds) this.holding--;
      }
    };
    this.queue = this.queue.then(task);
    return this.queue;
  }
}

export const recorder = new RecorderStore();
