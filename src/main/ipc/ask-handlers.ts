import type { Handlers } from '../../shared/ipc/contract';
import type { askContract } from '../../shared/ipc/ask-contract';
import type { Services } from '../core/app-services';
import type { EmitEvent } from './emit-event';
import type { IDisposable } from '../base/lifecycle';
import type { AskService } from '../core/ask/ask-service';

/** Ask's handlers: questions, Stop, the saved conversation, and the ready-made asks. */
export function createAskHandlers(services: Services): Pick<Handlers, keyof typeof askContract> {
  const { ask, settings } = services;
  return {
    'ask.send': async (input) => ({ entries: await ask.send(input) }),
    'ask.stop': ({ requestId }) => Promise.resolve({ stopped: ask.stop(requestId) }),
    'ask.conversation': async ({ transcriptId }) => ({ entries: await ask.conversation(transcriptId) }),
    'ask.clear': async ({ transcriptId }) => ({ removed: await ask.clear(transcriptId) }),
    'ask.templates': async () => ({ templates: (await settings.get()).askTemplates }),
    'ask.saveTemplates': async ({ templates }) => ({
      templates: (await settings.set({ askTemplates: templates })).askTemplates,
    }),
  };
}

/** Streams each answer to the renderer as it is written. Returns an unsubscribe, as the other wire*Events do. */
export function wireAskEvents(ask: AskService, emit: EmitEvent): IDisposable {
  return ask.events.subscribe((event) => {
    const { requestId, transcriptId } = event;
    if (event.type === 'delta') emit('ask.delta', { requestId, transcriptId, text: event.text });
    else if (event.type === 'entry') emit('ask.entry', { requestId, transcriptId, entry: event.entry });
    else emit('ask.done', { requestId, transcriptId });
  });
}
