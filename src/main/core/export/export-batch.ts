import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { extname, join } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import type { ExportFormat, ExportSettings } from '../../../shared/export-options';
import type { Library } from '../library/library';
import { missingFolderMessage, writeExportFile } from './export-file';
import { exportTranscript, type ExportEnvironment } from './export-transcript';
import { loadExportTranscript } from './library-export';

/** A file name from a transcript's title that every desktop system accepts. */
export function exportFileName(title: string, format: ExportFormat): string {
  const cleaned = title
    // Characters Windows or macOS refuse in names, and control characters.
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-')
    .replace(/\s+/g, ' ')
    .trim()
    // Windows drops trailing dots and spaces; a leading dot would hide the file on Unix.
    .replace(/^[.\s-]+|[.\s-]+$/g, '')
    .slice(0, 120)
    .trim();
  return `${cleaned || 'transcript'}.${format}`;
}

/** The path with the format's extension, added when the user typed a name without it. */
export function withExtension(path: string, format: ExportFormat): string {
  return extname(path).toLowerCase() === `.${format}` ? path : `${path}.${format}`;
}

/** Documents when there is one, else the home folder: where a reporter looks for a saved file. */
export function defaultExportFolder(): string {
  const documents = join(homedir(), 'Documents');
  return existsSync(documents) ? documents : homedir();
}

export interface ExportItem {
  id: string;
  title: string;
  ok: boolean;
  path?: string;
  message?: string;
  warnings: string[];
  ms: number;
}

export interface BatchRequest {
  library: Library;
  ids: string[];
  format: ExportFormat;
  options: ExportSettings;
  folder: string;
  /** The folder was there when chosen (see ExportWriteOptions.folderWasThere). */
  folderWasThere?: boolean;
  env?: ExportEnvironment;
  /** Told as each transcript is done or has failed, with its 1-based place in the batch. */
  onItem?: (item: ExportItem, index: number) => void;
  /** Whether a name is taken in the folder; injectable for tests. */
  exists?: (path: string) => boolean;
  now?: () => number;
}

/**
 * Exports many transcripts into one folder, one after another (each holds a whole transcript in
 * memory, and two cores are shared with the rest of the app). One failure never stops the
 * batch: it is reported with its message and the next transcript goes on. Names that are taken
 * in the folder, or by an earlier transcript of the same batch, get " (2)", " (3)"… so no
 * earlier file is ever overwritten.
 */
export async function exportBatch(request: BatchRequest): Promise<ExportItem[]> {
  // A missing folder is said once, rather than once for every transcript.
  if (!statSync(request.folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new VerbatimError(
      'storage',
      missingFolderMessage(request.folder, request.folderWasThere ?? false),
      {
        path: request.folder,
      },
    );
  }
  const exists = request.exists ?? existsSync;
  const now = request.now ?? (() => performance.now());
  const taken = new Set<string>();
  const results: ExportItem[] = [];
  for (const [i, id] of request.ids.entries()) {
    const started = now();
    let title = id;
    let item: ExportItem;
    try {
      const transcript = await loadExportTranscript(request.library, id);
      title = transcript.title;
      const { bytes, warnings } = await exportTranscript(
        request.format,
        transcript,
        request.options,
        request.env,
      );
      const path = freePath(request.folder, exportFileName(title, request.format), exists, taken);
      await writeExportFile(path, bytes, { replace: false });
      taken.add(path);
      item = { id, title, ok: true, path, warnings, ms: now() - started };
    } catch (error) {
      const message =
        error instanceof VerbatimError
          ? error.message
          : `Verbatim could not export this transcript: ${String(error)}`;
      item = { id, title, ok: false, message, warnings: [], ms: now() - started };
    }
    results.push(item);
    request.onItem?.(item, i + 1);
  }
  return results;
}

function freePath(
  folder: string,
  name: string,
  exists: (path: string) => boolean,
  taken: Set<string>,
): string {
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let n = 1; ; n++) {
    const candidate = join(folder, n === 1 ? name : `${stem} (${n})${extension}`);
    if (!taken.has(candidate) && !exists(candidate)) return candidate;
  }
}
