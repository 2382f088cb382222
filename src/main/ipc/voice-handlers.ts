import type { Handlers } from '../../shared/ipc/contract';
import type { voiceContract } from '../../shared/ipc/voice-contract';
import type { VoiceServices } from '../core/app-services';
import type { EmitEvent } from './emit-event';
import type { IDisposable } from '../base/lifecycle';

type VoiceHandlers = Pick<Handlers, keyof typeof voiceContract>;

export function createVoiceHandlers(services: VoiceServices): VoiceHandlers {
  const { assistant, conversations } = services;
  return {
    'voice.start': () => assistant.start(),
    'voice.stop': () => assistant.stop(),
    'voice.status': () => assistant.status(),
    'voice.setMuted': ({ muted }) => assistant.setMuted(muted),
    'voice.setMode': ({ mode }) => assistant.setMode(mode),
    'voice.setHeadphones': ({ headphones }) => assistant.setHeadphones(headphones),
    'voice.pushToTalk': ({ talking }) => assistant.pushToTalk(talking),
    'voice.devices': () => Promise.resolve(assistant.devices()),
    'voice.selectDevices': (choice) => assistant.selectDevices(choice),
    'voice.conversations': ({ limit }) => Promise.resolve(conversations.list(limit)),
    'voice.conversation': ({ id }) => Promise.resolve(conversations.turns(id)),
    'voice.search': ({ query }) => Promise.resolve(conversations.search(query)),
    'voice.openWindow': () => {
      services.openAssistantWindow?.();
      return Promise.resolve({ opened: services.openAssistantWindow !== undefined });
    },
  };
}

/** Forwards the assistant's events to the UI; returns the unsubscribe. */
export function wireVoiceEvents(services: VoiceServices, emit: EmitEvent): IDisposable {
  return services.assistant.events.subscribe((event) => {
    switch (event.type) {
      case 'status':
        return emit('voice.status', event.status);
      case 'transcript':
        return emit('voice.transcript', {
          role: event.role,
          text: event.text,
          final: event.final,
          interrupted: event.interrupted,
        });
      case 'tool':
        return emit('voice.toolCall', {
          callId: event.callId,
          name: event.name,
          arguments: event.arguments,
          status: event.status,
          result: event.result,
        });
      case 'level':
        return emit('voice.level', { rms: event.rms, peak: event.peak });
      case 'error':
        return emit('voice.error', { code: event.code, message: event.message });
    }
  });
}
