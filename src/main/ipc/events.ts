import type { EmitEvent } from './emit-event';
import type { Services } from '../core/app-services';
import { toSummary } from './transcript-summary';
import { wireAskEvents } from './ask-handlers';
import { wireVoiceEvents } from './voice-handlers';
import { wireRecorderEvents } from './recorder-handlers';
import { DisposableStore, type IDisposable } from '../base/lifecycle';

/**
 * Forwards service notifications to whichever transport is listening. Disposing it stops
 * every forward (a window or a web host closing).
 */
export function wireEvents(services: Services, emit: EmitEvent): IDisposable {
  const wiring = new DisposableStore();
  wiring.addFn(services.settings.onChange((settings) => emit('settings.changed', settings)));
  wiring.addFn(services.jobUpdated.subscribe((job) => emit('job.updated', toSummary(job))));
  wiring.addFn(services.jobProgress.subscribe((progress) => emit('job.progress', progress)));
  wiring.addFn(services.openTranscript.subscribe((request) => emit('app.openTranscript', request)));
  wiring.addFn(services.openRecordings.subscribe((opened) => emit('app.openRecordings', opened)));
  wiring.addFn(services.exportProgress.subscribe((progress) => emit('export.progress', progress)));
  wiring.addFn(services.catalogRefreshed.subscribe((overview) => emit('catalog.refreshed', overview)));
  const { library } = services.core;
  wiring.addFn(library.highlightsChanged.subscribe((change) => emit('highlights.changed', change)));
  wiring.addFn(library.storiesChanged.subscribe((change) => emit('stories.changed', change)));
  wiring.addFn(services.core.glossaries.changed.subscribe(() => emit('glossaries.changed', {})));
  wiring.addFn(wireAskEvents(services.ask, emit));
  wiring.addFn(wireVoiceEvents(services, emit));
  wiring.addFn(wireRecorderEvents(services, emit));
  return wiring;
}
