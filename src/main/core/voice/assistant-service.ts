import type { Microphone } from '../recording/microphone';
import { VerbatimError, withoutFullStop } from '../../../shared/errors';
import type { AudioDeviceInfo, VoiceStatus } from '../../../shared/voice';
import type { Settings } from '../../../shared/settings';
import type { Library, JobRecord } from '../library/library';
import { Signal } from '../../base/signal';
import type { VoiceConversationStore } from '../library/voice-conversation-store';
import { microphoneRefused, type MicrophoneAccess } from './microphone-access';
import type { AudioSink } from './playback-queue';
import {
  assistantConfig,
  assistantToolRunner,
  assistantTools,
  type AssistantPreferences,
} from './voice-assistant';
import { voiceAddress } from './voice-address';
import type { Clock } from '../../base/clock';
import { VoiceSession, type AudioSource, type VoiceEvent } from './voice-session';
import { wsSocketFactory, type VoiceSocketFactory } from './voice-socket';
import type { IDisposable } from '../../base/lifecycle';

/**
 * The assistant as the app runs it: one voice session at a time, its audio devices, the
 * reporter's preferences, and the conversation saved in the library as it happens. The
 * platform supplies the audio (PortAudio in the app, a recording in the web host's tests).
 */

/** Sound devices, behind an interface: the desktop app's PortAudio, or a file for tests. */
export interface AssistantAudio {
  /**
   * Why there is no sound at all here (the native backend failed to load), in the journalist's
   * words; undefined when the devices can be used. Absent: always usable.
   */
  unavailable?(): string | undefined;
  /**
   * The OS's permission to hear the microphone, asked for when the OS has such a thing
   * (macOS). Absent where no one is asked (the CLI, the web host): granted.
   */
  microphoneAccess?(): Promise<MicrophoneAccess>;
  devices(): AudioDeviceInfo[];
  source(deviceId: number | null): AudioSource;
  sink(deviceId: number | null, onError: (error: Error) => void): AudioSink;
}

/** What the assistant tells the UI. */
export type AssistantEvent =
  | { type: 'status'; status: VoiceStatus }
  | { type: 'transcript'; role: 'user' | 'agent'; text: string; final: boolean; interrupted: boolean }
  | {
      type: 'tool';
      callId: string;
      name: string;
      arguments: unknown;
      status: 'running' | 'sent' | 'dropped';
      result?: string;
    }
  | { type: 'level'; rms: number; peak: number }
  | { type: 'error'; code: string; message: string };

export interface AssistantServiceOptions {
  library: Library;
  conversations: VoiceConversationStore;
  audio: AssistantAudio;
  apiKey: () => string | undefined;
  /** The override of the agent's address (environment, then Settings), if any. */
  voiceUrl: () => string | undefined;
  preferences: () => Promise<Settings['voicePreferences']>;
  savePreferences: (preferences: Settings['voicePreferences']) => Promise<void>;
  listFolder: (folder: string) => Promise<string[]>;
  submit: (path: string) => Promise<JobRecord>;
  newId: () => string;
  now: () => number;
  socketFactory?: VoiceSocketFactory;
  clock?: Clock;
  /** Shared with the interview recorder: one capture at a time (issue #23). */
  microphone?: Microphone;
}

export class AssistantService implements IDisposable {
  readonly events = new Signal<AssistantEvent>();
  private session: VoiceSession | undefined;
  private conversationId: string | null = null;
  private muted = false;
  private preferencesNow: AssistantPreferences | undefined;

  constructor(private readonly options: AssistantServiceOptions) {}

  async status(): Promise<VoiceStatus> {
    return this.statusOf(await this.preferences(), this.session?.state ?? 'closed');
  }

  private statusOf(preferences: AssistantPreferences, state: VoiceStatus['state']): VoiceStatus {
    const audioUnavailable = this.options.audio.unavailable?.();
    return {
      ...(audioUnavailable ? { audioUnavailable } : {}),
      state,
      muted: this.muted,
      mode: preferences.mode,
      headphones: preferences.headphones,
      inputDeviceId: preferences.inputDeviceId,
      outputDeviceId: preferences.outputDeviceId,
      conversationId: this.conversationId,
    };
  }

  devices(): AudioDeviceInfo[] {
    return this.options.audio.devices();
  }

  async start(): Promise<VoiceStatus> {
    if (this.session) return this.status();
    const { library, audio } = this.options;
    const unavailable = audio.unavailable?.();
    if (unavailable) throw new VerbatimError('internal', unavailable);
    const apiKey = this.options.apiKey();
    if (!apiKey) {
      throw new VerbatimError(
        'unauthorized',
        'Add your transcription API key in Settings to use the assistant.',
      );
    }
    // Asked before any device or connection is opened, and only once the session could
    // otherwise start: the OS prompt is the journalist's first sight of the assistant at work.
    const access = audio.microphoneAccess ? await audio.microphoneAccess() : 'granted';
    if (access !== 'granted') throw microphoneRefused();
    const preferences = await this.preferences();
    // Another start() may have got here first while the OS was asking.
    if (this.session) return this.status();
    const tools = assistantTools({ listFolder: this.options.listFolder, submit: this.options.submit });
    const conversationId = this.options.newId();
    const session = new VoiceSession({
      socketUrl: voiceAddress(this.options.voiceUrl()).socketUrl,
      auth: { kind: 'key', apiKey },
      config: assistantConfig(preferences, tools),
      socketFactory: this.options.socketFactory ?? wsSocketFactory,
      clock: this.options.clock,
      source: audio.source(preferences.inputDeviceId),
      sink: audio.sink(preferences.outputDeviceId, (error) =>
        this.events.emit({
          type: 'error',
          code: 'audio_device',
          message: `The speaker stopped working: ${withoutFullStop(error.message)}. Pick another device.`,
        }),
      ),
      runTool: assistantToolRunner(library, tools),
      mode: preferences.mode,
      headphones: preferences.headphones,
      onEvent: (event) => this.onSessionEvent(session, event),
    });
    // Refused while an interview is being recorded, before any device or connection is opened.
    this.options.microphone?.take('assistant');
    session.setMuted(this.muted);
    this.session = session;
    this.conversationId = conversationId;
    this.options.conversations.begin(conversationId, this.options.now());
    try {
      await session.start();
    } catch (error) {
      this.finished(session);
      await this.announce();
      throw error;
    }
    return this.status();
  }

  async stop(): Promise<VoiceStatus> {
    const session = this.session;
    if (session) {
      await session.stop();
      this.finished(session);
    }
    return this.announce();
  }

  async setMuted(muted: boolean): Promise<VoiceStatus> {
    this.muted = muted;
    this.session?.setMuted(muted);
    return this.announce();
  }

  async setMode(mode: AssistantPreferences['mode']): Promise<VoiceStatus> {
    this.session?.setMode(mode);
    return this.savePreferences({ mode });
  }

  async setHeadphones(headphones: boolean): Promise<VoiceStatus> {
    this.session?.setHeadphones(headphones);
    return this.savePreferences({ headphones });
  }

  /** Push-to-talk; holding the button also switches to that mode, as the reporter clearly wants it. */
  async pushToTalk(talking: boolean): Promise<VoiceStatus> {
    const preferences = await this.preferences();
    if (preferences.mode !== 'push-to-talk') await this.setMode('push-to-talk');
    this.session?.setTalking(talking);
    return this.status();
  }

  /** The choice applies to the next session: a stream cannot move devices mid-conversation. */
  async selectDevices(choice: {
    inputDeviceId?: number | null;
    outputDeviceId?: number | null;
  }): Promise<VoiceStatus> {
    const known = new Set(this.devices().map((device) => device.id));
    for (const id of [choice.inputDeviceId, choice.outputDeviceId]) {
      if (id !== undefined && id !== null && !known.has(id)) {
        throw new VerbatimError('not_found', 'That audio device is no longer connected. Pick another one.');
      }
    }
    return this.savePreferences(choice);
  }

  async close(): Promise<void> {
    await this.stop();
  }

  /** Drops the running session at once (no close handshake), its timers and devices with it. */
  dispose(): void {
    this.session?.dispose();
  }

  private async preferences(): Promise<AssistantPreferences> {
    this.preferencesNow ??= await this.options.preferences();
    return this.preferencesNow;
  }

  private async savePreferences(patch: Partial<AssistantPreferences>): Promise<VoiceStatus> {
    const next = { ...(await this.preferences()), ...patch };
    this.preferencesNow = next;
    await this.options.savePreferences(next);
    return this.announce();
  }

  private async announce(): Promise<VoiceStatus> {
    const status = await this.status();
    this.events.emit({ type: 'status', status });
    return status;
  }

  /** The session ended (stopped, failed to start, or gave up reconnecting): close its conversation. */
  private finished(session: VoiceSession): void {
    if (this.session !== session) return;
    this.session = undefined;
    this.options.microphone?.release('assistant');
    if (this.conversationId) this.options.conversations.end(this.conversationId, this.options.now());
    this.conversationId = null;
  }

  private onSessionEvent(session: VoiceSession, event: VoiceEvent): void {
    const conversationId = this.conversationId;
    const store = this.options.conversations;
    const at = this.options.now();
    switch (event.type) {
      case 'state':
        if (event.state === 'closed') this.finished(session);
        // Said at once, with this very state: the UI must see every step, in order.
        if (this.preferencesNow) {
          this.events.emit({ type: 'status', status: this.statusOf(this.preferencesNow, event.state) });
        }
        return;
      case 'session':
        if (conversationId) store.setSession(conversationId, event.sessionId);
        return;
      case 'user-transcript':
        if (event.final && conversationId)
          store.addTurn(conversationId, { role: 'user', text: event.text, at });
        this.events.emit({
          type: 'transcript',
          role: 'user',
          text: event.text,
          final: event.final,
          interrupted: false,
        });
        return;
      case 'agent-transcript':
        if (conversationId) {
          store.addTurn(conversationId, {
            role: 'agent',
            text: event.text,
            interrupted: event.interrupted,
            at,
          });
        }
        this.events.emit({
          type: 'transcript',
          role: 'agent',
          text: event.text,
          final: true,
          interrupted: event.interrupted,
        });
        return;
      case 'tool-call':
        this.events.emit({
          type: 'tool',
          callId: event.callId,
          name: event.name,
          arguments: event.arguments,
          status: 'running',
        });
        return;
      case 'tool-result':
        if (conversationId) {
          store.addTurn(conversationId, { role: 'tool', text: event.result, toolName: event.name, at });
        }
        this.events.emit({
          type: 'tool',
          callId: event.callId,
          name: event.name,
          arguments: undefined,
          status: event.sent ? 'sent' : 'dropped',
          result: event.result,
        });
        return;
      case 'level':
        this.events.emit(event);
        return;
      case 'error':
        this.events.emit(event);
        return;
      case 'reply-started':
      case 'reply-done':
        return;
    }
  }
}
