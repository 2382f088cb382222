import type { Handlers } from '../../shared/ipc/contract';
import type { Library } from '../core/library/library';
import { exportLibraryStory } from '../core/export/library-story-export';
import { requireAbsolute } from './absolute-path';

type StoryExportHandlers = Pick<Handlers, 'stories.export'>;

export function createStoryExportHandlers(services: { library: Library }): StoryExportHandlers {
  return {
    'stories.export': ({ id, format, path, options, replace, clipsFolder }) =>
      exportLibraryStory(services.library, {
        story: id,
        format,
        path: requireAbsolute(path),
        options,
        replace: replace ?? false,
        ...(clipsFolder === undefined ? {} : { clipsFolder: requireAbsolute(clipsFolder) }),
      }),
  };
}
