import { resolve } from 'node:path';
import {
  storyExportFormatSchema,
  storyExportFormats,
  type StoryExportOptionsInput,
} from '../../../shared/story-export-options';
import { withExtension } from '../../core/export/export-batch';
import { exportLibraryStory } from '../../core/export/library-story-export';
import type { CliIo } from '../cli-io';
import type { OptionValues } from '../cli-options';
import type { CommandContext } from '../command';
import { UsageError } from '../usage-error';

/** The options of `story export`, part of the `story` command's options (story.ts). */
export const storyExportOptions = {
  format: {
    type: 'string',
    valueName: 'FORMAT',
    description: `the story's file format: ${storyExportFormats.join(', ')}`,
  },
  out: {
    type: 'string',
    valueName: 'PATH',
    description: "the story's file; the format's extension is added unless the path ends with it",
  },
  clips: {
    type: 'string',
    valueName: 'DIR',
    description: 'also writes one audio clip per quote into this folder (cut from WAV recordings)',
  },
  citation: {
    type: 'string',
    valueName: 'STYLE',
    description: 'the citation after each quote, from {speaker} {title} {date} {time}',
  },
  sources: { type: 'boolean', description: 'ends the story with its sources, each transcript once' },
  force: { type: 'boolean', description: 'replaces the file and clips already there' },
  json: { type: 'boolean', description: 'prints the answer as JSON' },
} as const;

export const storyExportUsage = `export <story> --format ${storyExportFormats.join('|')} --out PATH [--clips DIR]
[--citation STYLE] [--sources] [--force] [--json]`;

type StoryExportValues = Partial<OptionValues<typeof storyExportOptions>>;

/** `story export <story>`: the story (by id or name) to a file, and its clips to a folder. */
export async function exportStoryFromCommandLine(
  words: string[],
  values: StoryExportValues,
  context: Pick<CommandContext, 'io' | 'openLibrary'>,
): Promise<number> {
  const { io } = context;
  const [reference, ...extra] = words;
  if (!reference || extra.length > 0)
    throw new UsageError('story export needs one story, by its id or its name in quotes');
  const format = storyExportFormatSchema.safeParse(values.format);
  if (!format.success) throw new UsageError(`--format must be one of ${storyExportFormats.join(', ')}`);
  if (!values.out) throw new UsageError('--out needs the path of the file to write');
  const options: StoryExportOptionsInput = {
    sourceList: values.sources ?? false,
    ...(values.citation === undefined ? {} : { citation: values.citation }),
  };
  const { core } = context.openLibrary({ showProgress: false });
  const result = await exportLibraryStory(core.library, core.redactions, {
    story: reference,
    format: format.data,
    path: withExtension(resolve(values.out), format.data),
    options,
    // A script never silently replaces a file: --force says it may.
    replace: values.force ?? false,
    ...(values.clips === undefined ? {} : { clipsFolder: resolve(values.clips) }),
  });
  if (values.json) io.out(JSON.stringify(result, null, 2));
  else report(io, result);
  return 0;
}

function report(io: CliIo, result: Awaited<ReturnType<typeof exportLibraryStory>>): void {
  const lines = [`Saved ${result.path}`];
  const clips = result.clips;
  if (clips) {
    const count = clips.written.length;
    lines.push(
      count === 0
        ? 'No clip was cut.'
        : `Saved ${count === 1 ? '1 clip' : `${count} clips`} in ${clips.folder}`,
    );
  }
  io.out(lines.join('\n'));
  for (const warning of result.warnings) io.err(`warning: ${warning}\n`);
  for (const skipped of clips?.skipped ?? []) io.err(`${skipped.reason}\n`);
}
