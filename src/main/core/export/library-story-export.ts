import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import type { Story } from '../../../shared/highlights';
import type { StoryExportFormat, StoryExportOptionsInput } from '../../../shared/story-export-options';
import type { Library } from '../library/library';
import type { RedactionLookup } from '../media/redacted-recording';
import { writeExportFile } from './export-file';
import { type RecordingLookup, type StoryClipsResult, exportStoryClips } from './story-clips';
import { type StoryExportEnv, renderStory } from './story-export';

/**
 * A story of the library to a file, and optionally its clips to a folder: what `stories.export`
 * and `story export` both run. The story is rendered and every clip's source checked before
 * anything is written, so a bad citation style or a file in the way stops it with nothing saved.
 */

export interface LibraryStoryExport {
  /** The story's id, or (from the command line) its id or name as typed. */
  story: number | string;
  format: StoryExportFormat;
  path: string;
  options?: StoryExportOptionsInput;
  replace: boolean;
  /** A folder for one audio clip per quote, when wanted. */
  clipsFolder?: string;
}

export interface LibraryStoryExportResult {
  path: string;
  warnings: string[];
  clips: StoryClipsResult | null;
}

/** The recording of a transcript of the library, as the clips need it: redacted where its words are. */
export function libraryRecordings(
  library: Pick<Library, 'requireJob'>,
  redactions: RedactionLookup,
): RecordingLookup {
  return async (transcriptId) => {
    const job = await library.requireJob(transcriptId);
    return { audioPath: job.audioPath, title: job.title, redaction: await redactions(transcriptId) };
  };
}

function loadStory(library: Pick<Library, 'story' | 'findStory'>, story: number | string): Promise<Story> {
  return typeof story === 'number' ? library.story(story) : library.findStory(story);
}

export async function exportLibraryStory(
  library: Pick<Library, 'story' | 'findStory' | 'requireJob'>,
  redactions: RedactionLookup,
  request: LibraryStoryExport,
  env: StoryExportEnv = {},
): Promise<LibraryStoryExportResult> {
  const story = await loadStory(library, request.story);
  const { bytes, warnings } = await renderStory(story, request.format, request.options, env);
  // Refused here, before the clips, so a name already taken does not leave clips without their story.
  if (!request.replace && (await stat(request.path).catch(() => undefined))?.isFile())
    throw new VerbatimError(
      'conflict',
      `${basename(request.path)} already exists in ${dirname(request.path)}. Choose another name, or say to replace it.`,
      { path: request.path },
    );
  const clips =
    request.clipsFolder === undefined
      ? null
      : await exportStoryClips(story, request.clipsFolder, libraryRecordings(library, redactions), {
          replace: request.replace,
        });
  await writeExportFile(request.path, bytes, { replace: request.replace });
  return { path: request.path, warnings, clips };
}
