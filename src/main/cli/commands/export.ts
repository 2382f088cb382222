import { resolve } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import {
  defaultExportSettings,
  exportFormatSchema,
  exportFormats,
  exportOptionsSchema,
  type ExportSettings,
} from '../../../shared/export-options';
import type { Core } from '../../core/app-core';
import { withExtension } from '../../core/export/export-batch';
import { writeExportFile } from '../../core/export/export-file';
import { emptyRangeProblem, exportTranscript } from '../../core/export/export-transcript';
import { loadExportTranscript } from '../../core/export/library-export';

/** `verbatim export`: one transcript to a file, with the same options as the export dialog. */
export const exportUsage = `export <id> --format ${exportFormats.join('|')} --out PATH [--unit sentences|paragraphs|turns]
         [--timestamps none|paragraph|sentence|every:N] [--no-speakers] [--no-header] [--appendix]
         [--unredacted] [--range START-END (hh:mm:ss, mm:ss or seconds)] [--force] [--json]`;

/** The flags parseArgs must know for this command. */
export const exportCliOptions = {
  format: { type: 'string' },
  out: { type: 'string' },
  unit: { type: 'string' },
  timestamps: { type: 'string' },
  'no-speakers': { type: 'boolean', default: false },
  'no-header': { type: 'boolean', default: false },
  appendix: { type: 'boolean', default: false },
  unredacted: { type: 'boolean', default: false },
  range: { type: 'string' },
  force: { type: 'boolean', default: false },
} as const;

export interface ExportCliValues {
  format?: string | undefined;
  out?: string | undefined;
  unit?: string | undefined;
  timestamps?: string | undefined;
  'no-speakers'?: boolean | undefined;
  'no-header'?: boolean | undefined;
  appendix?: boolean | undefined;
  unredacted?: boolean | undefined;
  range?: string | undefined;
  force?: boolean | undefined;
  json?: boolean | undefined;
}

function usageError(message: string): VerbatimError {
  return new VerbatimError('invalid_input', `${message}\n\nUsage: npm run cli -- ${exportUsage}`);
}

/** "01:02:03", "02:03" or "123.5" (seconds) to milliseconds. */
function parseTime(text: string): number | undefined {
  const parts = text.trim().split(':');
  if (parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return undefined;
  return Math.round(parts.reduce((total, p) => total * 60 + Number(p), 0) * 1000);
}

function parseTimestamps(text: string): ExportSettings['timestamps'] {
  if (text === 'none' || text === 'paragraph' || text === 'sentence') return { kind: text };
  const every = /^every:(\d+)$/.exec(text);
  if (every) return { kind: 'every', seconds: Number(every[1]) };
  throw usageError(`--timestamps must be none, paragraph, sentence or every:N (seconds), not "${text}"`);
}

function parseRange(text: string): { startMs: number; endMs: number } {
  const [start, end, ...rest] = text.split('-');
  const startMs = start === undefined ? undefined : parseTime(start);
  const endMs = end === undefined ? undefined : parseTime(end);
  if (rest.length > 0 || startMs === undefined || endMs === undefined || endMs <= startMs) {
    throw usageError(
      `--range must be START-END with END after START, such as 00:01:30-00:02:10, not "${text}"`,
    );
  }
  return { startMs, endMs };
}

/** The command-line flags as export options, checked by the same schema as the dialog's. */
export function exportSettingsFromFlags(values: ExportCliValues): ExportSettings {
  const parsed = exportOptionsSchema.safeParse({
    ...defaultExportSettings,
    ...(values.unit !== undefined ? { unit: values.unit } : {}),
    ...(values.timestamps !== undefined ? { timestamps: parseTimestamps(values.timestamps) } : {}),
    speakerNames: !values['no-speakers'],
    header: !values['no-header'],
    appendix: values.appendix ?? false,
    redacted: !values.unredacted,
    ...(values.range !== undefined ? { range: parseRange(values.range) } : {}),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = issue?.path[0] === 'unit' ? '--unit must be sentences, paragraphs or turns' : issue?.message;
    throw usageError(flag ?? 'these export options do not fit together');
  }
  return parsed.data;
}

export async function runExportCommand(
  core: Core,
  positionals: string[],
  values: ExportCliValues,
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const [id, ...extra] = positionals;
  if (!id || extra.length > 0) throw usageError('export needs one transcript id');
  const format = exportFormatSchema.safeParse(values.format);
  if (!format.success) throw usageError(`--format must be one of ${exportFormats.join(', ')}`);
  if (!values.out) throw usageError('--out needs the path of the file to write');
  const options = exportSettingsFromFlags(values);
  const path = withExtension(resolve(values.out), format.data);
  const transcript = await loadExportTranscript(core.library, id);
  const emptyRange = emptyRangeProblem(transcript, options);
  if (emptyRange)
    throw usageError(`${emptyRange}; nothing was written. Choose a range within the recording.`);
  const { bytes, warnings } = await exportTranscript(format.data, transcript, options);
  // A script never silently replaces a file: --force says it may.
  await writeExportFile(path, bytes, { replace: values.force ?? false });
  if (values.json) io.out(JSON.stringify({ path, bytes: bytes.length, warnings }, null, 2));
  else {
    io.out(`Saved ${path}`);
    for (const warning of warnings) io.err(`warning: ${warning}\n`);
  }
  return 0;
}
