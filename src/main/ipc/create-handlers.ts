import type { Handlers } from '../../shared/ipc/contract';
import type { Services } from '../core/app-services';
import { createAskHandlers } from './ask-handlers';
import { createCatalogHandlers } from './catalog-handlers';
import { createCorrectionsHandlers } from './corrections-handlers';
import { createExportHandlers } from './export-handlers';
import { createGlossaryHandlers } from './glossary-handlers';
import { createHighlightsHandlers } from './highlights-handlers';
import { createLogHandlers } from './log-handlers';
import { createSettingsHandlers, secretsStatusOf } from './settings-handlers';
import { createStoryExportHandlers } from './story-export-handlers';
import { createTranscriptsHandlers } from './transcripts-handlers';
import { createVoiceHandlers } from './voice-handlers';
import { createRecorderHandlers } from './recorder-handlers';
import { createNewsroomHandlers } from './newsroom-handlers';
import { createNewsroomGlossaryHandlers } from './newsroom-glossary-handlers';
import { createPublishingHandlers } from './publishing-handlers';
import { createNoticesHandlers } from './notices-handlers';
import { createStoryReviewHandlers } from './story-review-handlers';

/** The whole contract implemented over the app's services; the same object serves every transport. */
export function createHandlers(services: Services): Handlers {
  return {
    ...createTranscriptsHandlers(services),
    ...createCorrectionsHandlers(services),
    ...createHighlightsHandlers(services),
    ...createGlossaryHandlers({ ...services.core, exportPlatform: services.exportPlatform }),
    ...createStoryExportHandlers({ library: services.core.library, redactions: services.core.redactions }),
    ...createSettingsHandlers(services),
    ...createCatalogHandlers(services, () => secretsStatusOf(services)),
    ...createVoiceHandlers(services),
    ...createExportHandlers({ ...services, library: services.core.library }),
    ...createAskHandlers(services),
    ...createLogHandlers(services),
    ...createRecorderHandlers(services),
    ...createNewsroomHandlers(services),
    ...createNewsroomGlossaryHandlers(services),
    ...createPublishingHandlers(services),
    ...createNoticesHandlers(services.core.notices),
    ...createStoryReviewHandlers(services),
  };
}
