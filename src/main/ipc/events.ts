import type { EmitEvent } from './emit-event';
import type { Services } from '../core/app-services';
import { toSummary } from './transcript-summary';
import { wireAskEvents } from './ask-handlers';
import { wireVoiceEvents } from './voice-handlers';
import { wireRecorderEvents } from './recorder-handlers';
import { wireNoticesEvents } from './notices-handlers';
import { DisposableStore, type IDisposable } from '../base/lifecycle';

/**
 * Forwards service notifications to whichever transport is listening. Disposing it stops
 * every forward (a window or a web host closing).
 */
export function wireEvents(services: Services, emit: EmitEvent): IDisposable {
  const wiring = new DisposableStore();
  wiring.add(services.settings.onChange((settings) => emit('settings.changed', settings)));
  wiring.add(services.jobUpdated.subscribe((job) => emit('job.updated', toSummary(job))));
  wiring.add(services.jobProgress.subscribe((progress) => emit('job.progress', progress)));
  wiring.add(services.openTranscript.subscribe((request) => emit('app.openTranscript', request)));
  wiring.add(services.openRecordings.subscribe((opened) => emit('app.openRecordings', opened)));
  wiring.add(services.exportProgress.subscribe((progress) => emit('export.progress', progress)));
  wiring.add(services.catalogRefreshed.subscribe((overview) => emit('catalog.refreshed', overview)));
  const { library } = services.core;
  wiring.add(library.highlightsChanged.subscribe((change) => emit('highlights.changed', change)));
  wiring.add(library.storiesChanged.subscribe((change) => emit('stories.changed', change)));
  wiring.add(services.unsavedEdits.requested.subscribe((request) => emit('corrections.flush', request)));
  wiring.add(services.core.glossaries.changed.subscribe(() => emit('glossaries.changed', {})));
  wiring.add(wireAskEvents(services.ask, emit));
  wiring.add(wireVoiceEvents(services, emit));
  wiring.add(wireRecorderEvents(services, emit));
  wiring.add(services.newsroomReader.changed.subscribe(() => emit('newsroom.changed', {})));
  wiring.add(
    services.newsroomPublicationChanged.subscribe((publication) =>
      emit('newsroom.publicationChanged', publication),
    ),
  );
  wiring.add(services.newsroomKeepProgress.subscribe((progress) => emit('newsroom.keepProgress', progress)));
  wiring.add(wireNoticesEvents(services.core.notices, emit));
  wiring.add(services.storyReviewChanged.subscribe((change) => emit('reviews.changed', change)));
  return wiring;
}
