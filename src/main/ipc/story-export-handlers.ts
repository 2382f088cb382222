import type { Handlers } from '../../shared/ipc/contract';
import type { Library } from '../core/library/library';
import type { RedactionLookup } from '../core/media/redacted-recording';
import { exportLibraryStory } from '../core/export/library-story-export';
import { requireAbsolute } from './absolute-path';

type StoryExportHandlers = Pick<Handlers, 'stories.export'>;

export function createStoryExportHandlers(services: {
  library: Library;
  redactions: RedactionLookup;
}): StoryExportHandlers {
  return {
    'stories.export': ({ id, format, path, options, replace, clipsFolder }) =>
      exportLibraryStory(services.library, services.redactions, {
        story: id,
        format,
        path: requireAbsolute(path),
        options,
        replace: replace ?? false,
        ...(clipsFolder === undefined ? {} : { clipsFolder: requireAbsolute(clipsFolder) }),
      }),
  };
}
