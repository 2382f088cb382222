import type { AudioDeviceInfo, VoiceStatus } from '../../../shared/voice';
import { api } from '../lib/api';
import { problem, type Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import { applyToolEvent, stateLabel, type ConversationEntry } from './assistant-logic';

const closed: VoiceStatus = {
  state: 'closed',
  muted: false,
  mode: 'hands-free',
  headphones: false,
  inputDeviceId: null,
  outputDeviceId: null,
  conversationId: null,
};

/** The assistant as the renderer sees it: its status and the conversation, live from main's events. */
class AssistantStore {
  status = $state<VoiceStatus>(closed);
  entries = $state<ConversationEntry[]>([]);
  /** What the reporter is saying right now, before the final transcript. */
  partial = $state('');
  level = $state(0);
  error = $state<Problem | undefined>(undefined);
  devices = $state<AudioDeviceInfo[]>([]);
  busy = $state(false);
  talking = $state(false);
  label = $derived(stateLabel(this.status.state, this.status.muted));
  running = $derived(this.status.state !== 'closed');

  private subscribed = false;

  async load(): Promise<void> {
    if (!this.subscribed) {
      this.subscribed = true;
      api.on('voice.status', (status) => (this.status = status));
      api.on('voice.transcript', (event) => {
        if (event.role === 'user' && !event.final) {
          this.partial = event.text;
          return;
        }
        if (event.role === 'user') this.partial = '';
        this.entries = [
          ...this.entries,
          { kind: event.role, text: event.text, interrupted: event.interrupted },
        ];
      });
      api.on('voice.toolCall', (event) => (this.entries = applyToolEvent(this.entries, event)));
      api.on('voice.level', (event) => (this.level = event.peak));
      api.on('voice.error', (event) => (this.error = problem(event.message)));
    }
    await this.run('voice.status', async () => {
      this.status = await api.voice.status();
      this.devices = await api.voice.devices();
    });
  }

  start = (): Promise<void> =>
    this.run('voice.start', async () => {
      this.entries = [];
      this.partial = '';
      this.status = await api.voice.start();
    });

  stop = (): Promise<void> => this.run('voice.stop', async () => void (this.status = await api.voice.stop()));

  toggleMute = (): Promise<void> =>
    this.run(
      'voice.setMuted',
      async () => void (this.status = await api.voice.setMuted({ muted: !this.status.muted })),
    );

  setMode = (mode: VoiceStatus['mode']): Promise<void> =>
    this.run('voice.setMode', async () => void (this.status = await api.voice.setMode({ mode })));

  setHeadphones = (headphones: boolean): Promise<void> =>
    this.run(
      'voice.setHeadphones',
      async () => void (this.status = await api.voice.setHeadphones({ headphones })),
    );

  talk = (talking: boolean): Promise<void> => {
    if (this.talking === talking) return Promise.resolve();
    this.talking = talking;
    return this.run(
      'voice.pushToTalk',
      async () => void (this.status = await api.voice.pushToTalk({ talking })),
    );
  };

  selectDevices = (choice: {
    inputDeviceId?: number | null;
    outputDeviceId?: number | null;
  }): Promise<void> =>
    this.run('voice.selectDevices', async () => void (this.status = await api.voice.selectDevices(choice)));

  openWindow = (): Promise<void> =>
    this.run('voice.openWindow', async () => void (await api.voice.openWindow()));

  private async run(context: string, action: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = undefined;
    try {
      await action();
    } catch (error) {
      this.error = caught(error, context);
    } finally {
      this.busy = false;
    }
  }
}

export const assistant = new AssistantStore();
