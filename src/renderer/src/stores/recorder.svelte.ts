import type { RecorderStatus, Recording, RecordingChoice, RecordingDevice } from '../../../shared/recording';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import { LevelRing, holdPeak, noPeak, shownPeak, waveformBars, type HeldPeak } from './level-history';
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

/** How often the disk's free space is asked again while recording (it fills as it records). */
const freeSpaceEveryMs = 10_000;

/**
 * The recorder as the renderer sees it (issue #23): main's status and level, live from its
 * events, with the last 30 s of levels the waveform draws and the peak the meter holds (#33).
 */
class RecorderStore {
  status = $state<RecorderStatus>(idle);
  level = $state(0);
  /** The input's peaks of the last 30 s, oldest first, one per 100 ms of sound. */
  waveform = $state.raw<number[]>([]);
  /** The peak the meter shows: the loudest of the last 1.5 s, then falling. */
  peak = $state(0);
  /** Bytes free where recordings go; null until known. */
  freeBytes = $state<number | null>(null);
  private readonly levels = new LevelRing(waveformBars);
  private heldPeak: HeldPeak = noPeak;
  private freeSpaceAskedAt = 0;
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
        if (status.state === 'idle') this.level = this.peak = 0;
        if (stopped) void this.refreshRecordings();
        if (stopped || performance.now() - this.freeSpaceAskedAt >= freeSpaceEveryMs)
          void this.refreshFreeSpace();
      });
      api.on('recorder.level', (event) => this.hear(event.peak));
    }
    await this.run('recorder.status', async () => {
      this.status = await api.recorder.status();
      this.devices = await api.recorder.devices();
      this.choice = defaultChoice(this.devices, this.choice);
      this.recordings = await api.recordings.list();
    });
    await this.refreshFreeSpace();
  }

  choose = (change: Partial<ChoiceDraft>): void => {
    this.choice = defaultChoice(this.devices, { ...this.choice, ...change });
  };

  start = (): Promise<void> =>
    this.run('recorder.start', async () => {
      this.sent = undefined;
      this.levels.clear();
      this.waveform = [];
      this.heldPeak = noPeak;
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

  /** A level reading from main: the meter, its held peak and the waveform follow it. */
  private hear(level: number): void {
    const now = performance.now();
    this.level = level;
    this.heldPeak = holdPeak(this.heldPeak, level, now);
    this.peak = shownPeak(this.heldPeak, now);
    this.levels.push(level);
    this.waveform = this.levels.toArray();
  }

  private async refreshFreeSpace(): Promise<void> {
    this.freeSpaceAskedAt = performance.now();
    try {
      this.freeBytes = (await api.recorder.freeSpace()).freeBytes;
    } catch (error) {
      this.error = caught(error, 'recorder.freeSpace');
    }
  }

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
