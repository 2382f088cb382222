import { isAbsolute } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import type { Handlers } from '../../shared/ipc/contract';
import type { Library } from '../core/library/library';
import { exportLibraryStory } from '../core/export/library-story-export';

type StoryExportHandlers = Pick<Handlers, 'stories.export'>;

/** A path from the page must be whole: a relative one would land wherever main happens to run. */
function requireAbsolute(path: string): string {
  if (!isAbsolute(path))
    throw new VerbatimError(
      'invalid_input',
      `Give the full path, starting from the top of the disk, not "${path}".`,
    );
  return path;
}

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
