import { exportFormats, type ExportFormat } from '../../../shared/export-options';
import { spanOfWords } from '../../../shared/time-range-words';
import type { ReaderModel } from './reader-model';

/** The options that mean something for a format; the dialog shows only these. */
export interface ApplicableOptions {
  unit: boolean;
  timestamps: boolean;
  header: boolean;
  appendix: boolean;
  subtitles: boolean;
  /** What the speaker-names switch is called for this format. */
  speakerLabel: string;
}

export function applicableOptions(format: ExportFormat): ApplicableOptions {
  const subtitles = format === 'srt' || format === 'vtt';
  const document = ['docx', 'pdf', 'md', 'txt'].includes(format);
  return {
    // CSV is one row per sentence and subtitles are cut by time: no choice of unit there.
    unit: document || format === 'json',
    // JSON carries every time already; CSV has time columns; captions are timed.
    timestamps: document,
    header: document,
    appendix: document || format === 'json',
    subtitles,
    speakerLabel: subtitles
      ? format === 'vtt'
        ? 'Speaker voice tags (<v Name>)'
        : 'Speaker names before captions (NAME:)'
      : 'Speaker names',
  };
}

/** The recording span of the words from flat index `first` to `last`, for an excerpt export. */
export function wordSpan(
  model: ReaderModel,
  first: number,
  last: number,
): { startMs: number; endMs: number } | undefined {
  const word = (index: number) =>
    model.turns[model.turnOf[index] ?? -1]?.words.find((w) => w.index === index);
  const a = word(Math.min(first, last));
  const b = word(Math.max(first, last));
  // The span the rule of time-range-words finds these words in again.
  return a && b ? spanOfWords([a, b]) : undefined;
}

/**
 * A typed export path with the extension of `format`: an extension of another export format is
 * replaced, anything else is kept and the extension added ("interview.docx" → "interview.srt",
 * "notes" → "notes.srt").
 */
export function withFormatExtension(path: string, format: ExportFormat): string {
  const trimmed = path.trim();
  if (trimmed === '') return path;
  const match = /\.([A-Za-z0-9]+)$/.exec(trimmed);
  const current = match?.[1]?.toLowerCase();
  if (current === format) return trimmed;
  if (current && (exportFormats as readonly string[]).includes(current))
    return `${trimmed.slice(0, -current.length - 1)}.${format}`;
  return `${trimmed}.${format}`;
}
