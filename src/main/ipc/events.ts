import type { EmitEvent } from './emit-event';
import { toSummary, type Services } from './services';
import { forwardAskEvents } from './ask-handlers';
import { wireVoiceEvents } from './voice-handlers';

export type { EmitEvent } from './emit-event';

/** Forwards service notifications to whichever transport is listening. Returns an unsubscribe. */
export function wireEvents(services: Services, emit: EmitEvent): () => void {
  const stops = [
    services.settings.onChange((settings) => emit('settings.changed', settings)),
    services.jobUpdated.subscribe((job) => emit('job.updated', toSummary(job))),
    services.jobProgress.subscribe((progress) => emit('job.progress', progress)),
    services.openTranscript.subscribe((request) => emit('app.openTranscript', request)),
    services.openRecordings.subscribe((opened) => emit('app.openRecordings', opened)),
    services.exportProgress.subscribe((progress) => emit('export.progress', progress)),
    services.catalogRefreshed.subscribe((overview) => emit('catalog.refreshed', overview)),
    forwardAskEvents(services.ask, emit),
    wireVoiceEvents(services, emit),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
