import type { Microphone } from '../recording/microphone';
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { VerbatimError } from '../../../shared/errors';
import type { Core } from '../app-core';
import type { Secrets } from '../secrets/secret-store';
import type { SettingsStore } from '../settings/settings-store';
import { AssistantService, type AssistantAudio } from './assistant-service';
import type { VoiceConversationStore } from '../library/voice-conversation-store';
import type { IDisposable } from '../../base/lifecycle';

/** Where no sound devices are wired up: the assistant says so instead of failing obscurely. */
export const noAudio: AssistantAudio = {
  devices: () => [],
  source: () => {
    throw new VerbatimError('internal', 'No microphone is available to the assistant here.');
  },
  sink: () => {
    throw new VerbatimError('internal', 'No speaker is available to the assistant here.');
  },
};

/** The assistant's services, built from the core the rest of the app shares. */
export function composeAssistant(options: {
  core: Core;
  settings: SettingsStore;
  secrets: Secrets;
  audio?: AssistantAudio | undefined;
  /** VERBATIM_VOICE_URL: wins over Settings. */
  voiceUrlOverride?: string | undefined;
  /** Shared with the interview recorder: one capture at a time. */
  microphone?: Microphone | undefined;
}): { assistant: AssistantService; conversations: VoiceConversationStore } & IDisposable {
  const { core, settings } = options;
  const conversations = core.database.voiceConversations;
  let voiceUrl: string | undefined;
  // A settings file that cannot be read is reported where the settings are composed.
  settings.get().then(
    (value) => (voiceUrl ??= value.voiceUrl),
    () => undefined,
  );
  const stopFollowing = settings.onChange((value) => (voiceUrl = value.voiceUrl));
  const assistant = new AssistantService({
    library: core.library,
    conversations,
    audio: options.audio ?? noAudio,
    apiKey: () => options.secrets.peek('transcriptionKey'),
    voiceUrl: () => options.voiceUrlOverride || voiceUrl || undefined,
    preferences: async () => (await settings.get()).voicePreferences,
    savePreferences: async (voicePreferences) => {
      await settings.set({ voicePreferences });
    },
    listFolder: (folder) => readdir(folder),
    submit: async (path) => {
      const current = await settings.get();
      return core.scheduler.submit({
        source: { kind: 'file', path },
        options: current.defaultOptions,
        region: current.region,
      });
    },
    newId: randomUUID,
    now: Date.now,
    ...(options.microphone ? { microphone: options.microphone } : {}),
  });
  return {
    assistant,
    conversations,
    dispose: () => {
      stopFollowing.dispose();
      assistant.dispose();
    },
  };
}
