import { resolve } from 'node:path';
import {
  defaultExportSettings,
  exportFormatSchema,
  exportFormats,
  exportOptionsSchema,
  type ExportSettings,
} from '../../../shared/export-options';
import { rangeOfTypedTimes, type TypedTime } from '../../../shared/time-range-words';
import { withExtension } from '../../core/export/export-batch';
import { writeExportFile } from '../../core/export/export-file';
import {
  hhmmss,
  wholeSentencesRange,
  type ExportRange,
  type ExportTranscript,
} from '../../core/export/export-model';
import { emptyRangeProblem, exportTranscript } from '../../core/export/export-transcript';
import { loadExportTranscript } from '../../core/export/library-export';
import type { OptionValues } from '../cli-options';
import { defineCommand } from '../command';
import { parseTypedTime } from '../time-argument';
import { UsageError } from '../usage-error';
import { transcriptOfArgument } from '../transcript-argument';

const exportOptions = {
  format: {
    type: 'string',
    valueName: 'FORMAT',
    description: `the file's format: ${exportFormats.join(', ')}`,
  },
  out: {
    type: 'string',
    valueName: 'PATH',
    description: "the file to write; the format's extension is added unless the path ends with it",
  },
  unit: {
    type: 'string',
    valueName: 'UNIT',
    description: 'sentences, paragraphs (the default) or turns: a block for each',
  },
  timestamps: {
    type: 'string',
    valueName: 'WHEN',
    description: 'none, paragraph (the default), sentence, or every:N seconds',
  },
  'no-speakers': { type: 'boolean', description: "leaves out the speakers' names" },
  'no-header': {
    type: 'boolean',
    description: 'leaves out the source, date, duration and language at the top',
  },
  appendix: { type: 'boolean', description: 'adds the summary, key phrases and entities at the end' },
  unredacted: { type: 'boolean', description: 'writes the words as said, not as the service redacted them' },
  range: {
    type: 'string',
    valueName: 'START-END',
    description:
      'only the whole sentences said between two moments, such as 00:01:30-00:02:10 (each sentence with a word mostly in between; a time as show prints it stands for the sentence printed there)',
  },
  force: { type: 'boolean', description: 'replaces a file already there (keeping its permissions)' },
  json: { type: 'boolean', description: 'prints the path, size and any warnings as JSON' },
} as const;

export type ExportCliValues = Partial<OptionValues<typeof exportOptions>>;

/** `export <id>`: one transcript to a file, with the same options as the export dialog. */
export const exportCommand = defineCommand({
  name: 'export',
  usage: [
    `<id> --format ${exportFormats.join('|')} --out PATH [--unit sentences|paragraphs|turns]
[--timestamps none|paragraph|sentence|every:N] [--no-speakers] [--no-header] [--appendix]
[--unredacted] [--range START-END (hh:mm:ss, mm:ss or seconds; whole sentences)] [--force] [--json]`,
  ],
  summary: 'Writes one transcript to a file, with the same options as the export dialog.',
  options: exportOptions,
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const { core } = openLibrary({ showProgress: !values.json });
    const [id, ...extra] = positionals;
    if (!id || extra.length > 0) throw new UsageError('export needs one transcript id');
    const format = exportFormatSchema.safeParse(values.format);
    if (!format.success) throw new UsageError(`--format must be one of ${exportFormats.join(', ')}`);
    if (!values.out) throw new UsageError('--out needs the path of the file to write');
    const settings = exportSettingsFromFlags(values);
    const typedRange = values.range === undefined ? undefined : parseRange(values.range);
    const path = withExtension(resolve(values.out), format.data);
    await transcriptOfArgument(core.library, id);
    const transcript = await loadExportTranscript(core.library, id);
    const range = typedRange && sentencesOfRange(transcript, typedRange);
    const options = range ? { ...settings, range } : settings;
    const { bytes, warnings } = await exportTranscript(format.data, transcript, options);
    // A script never silently replaces a file: --force says it may.
    await writeExportFile(path, bytes, { replace: values.force });
    const excerpt = range && { startMs: range.startMs, endMs: range.endMs };
    if (values.json) io.out(JSON.stringify({ path, bytes: bytes.length, range: excerpt, warnings }, null, 2));
    else {
      io.out(`Saved ${path}`);
      if (excerpt)
        io.out(
          `The excerpt runs from ${hhmmss(excerpt.startMs)} to ${hhmmss(excerpt.endMs)}, in whole sentences.`,
        );
      for (const warning of warnings) io.err(`warning: ${warning}\n`);
    }
    return 0;
  },
});

function parseTimestamps(text: string): ExportSettings['timestamps'] {
  if (text === 'none' || text === 'paragraph' || text === 'sentence') return { kind: text };
  const every = /^every:(\d+)$/.exec(text);
  if (every) return { kind: 'every', seconds: Number(every[1]) };
  throw new UsageError(`--timestamps must be none, paragraph, sentence or every:N (seconds), not "${text}"`);
}

/** "00:01:30-00:02:10": two times as the highlight command reads them. */
function parseRange(text: string): { from: TypedTime; to: TypedTime } {
  const [start, end, ...rest] = text.split('-');
  const from = start === undefined ? undefined : parseTypedTime(start, '--range');
  const to = end === undefined ? undefined : parseTypedTime(end, '--range');
  if (rest.length > 0 || from === undefined || to === undefined || to.ms <= from.ms) {
    throw new UsageError(
      `--range must be START-END with END after START, such as 00:01:30-00:02:10, not "${text}"`,
    );
  }
  return { from, to };
}

/**
 * The whole sentences a typed range holds, by the rule of time-range-words; a range with no
 * word in it is refused, so no empty file is written.
 */
function sentencesOfRange(t: ExportTranscript, typed: { from: TypedTime; to: TypedTime }): ExportRange {
  const range = wholeSentencesRange(t, rangeOfTypedTimes(t.sentences, typed.from, typed.to));
  if (range) return range;
  const asked = { startMs: typed.from.ms, endMs: typed.to.ms };
  const problem = emptyRangeProblem(t, { ...defaultExportSettings, range: asked }, 0);
  throw new UsageError(`${problem}; nothing was written. Choose a range within the recording.`);
}

/**
 * The command-line flags as export options, checked by the same schema as the dialog's; the
 * range is read apart, against the transcript's sentences.
 */
export function exportSettingsFromFlags(values: ExportCliValues): ExportSettings {
  const parsed = exportOptionsSchema.safeParse({
    ...defaultExportSettings,
    ...(values.unit !== undefined ? { unit: values.unit } : {}),
    ...(values.timestamps !== undefined ? { timestamps: parseTimestamps(values.timestamps) } : {}),
    speakerNames: !values['no-speakers'],
    header: !values['no-header'],
    appendix: values.appendix ?? false,
    redacted: !values.unredacted,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = issue?.path[0] === 'unit' ? '--unit must be sentences, paragraphs or turns' : issue?.message;
    throw new UsageError(flag ?? 'these export options do not fit together');
  }
  return parsed.data;
}
