import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import { exportFormatLabels, type ExportFormat, type ExportSettings } from '../../shared/export-options';
import type { Handlers } from '../../shared/ipc/contract';
import type { ExportProgress } from '../../shared/ipc/export-contract';
import type { SettingsStore } from '../core/settings/settings-store';
import type { Signal } from '../base/signal';
import type { Library } from '../core/library/library';
import { defaultExportFolder, exportBatch, exportFileName, withExtension } from '../core/export/export-batch';
import { writeExportFile } from '../core/export/export-file';
import { exportTranscript, previewExport } from '../core/export/export-transcript';
import { loadExportTranscript } from '../core/export/library-export';
import type { ExportPlatform, FileDialogs } from '../core/export/export-platform';
import { requireAbsolute } from './absolute-path';

export interface ExportServices {
  library: Library;
  settings: SettingsStore;
  exportProgress: Signal<ExportProgress>;
  exportPlatform?: ExportPlatform | undefined;
}

type ExportHandlers = Pick<Handlers, `export.${string}` & keyof Handlers>;

export function createExportHandlers(services: ExportServices): ExportHandlers {
  const folder = (): string => services.exportPlatform?.defaultFolder ?? defaultExportFolder();
  const dialogs = (): FileDialogs => {
    const found = services.exportPlatform?.dialogs;
    if (!found) {
      throw new VerbatimError(
        'invalid_input',
        'This window has no file dialog: type the path where to save instead.',
      );
    }
    return found;
  };
  /**
   * Folders that were there when offered or chosen in a dialog: one of them missing at save
   * time has gone (moved, a drive removed); a typed folder that is missing may never have been.
   */
  const seenFolders = new Set<string>();
  const seen = (path: string | null): void => {
    if (path && statSync(path, { throwIfNoEntry: false })?.isDirectory()) seenFolders.add(resolve(path));
  };
  const wasThere = (folderPath: string): boolean => seenFolders.has(resolve(folderPath));
  /** The options become the format's defaults next time; the excerpt belonged to this export only. */
  const remember = async (format: ExportFormat, options: ExportSettings): Promise<void> => {
    const { range: _range, ...kept } = options;
    const current = await services.settings.get();
    await services.settings.set({ exportOptions: { ...current.exportOptions, [format]: kept } });
  };

  return {
    'export.capabilities': () => {
      const defaultFolder = folder();
      seen(defaultFolder);
      return Promise.resolve({
        nativeDialogs: services.exportPlatform?.dialogs !== undefined,
        defaultFolder,
      });
    },
    'export.preview': async ({ id, format, options }) => {
      const transcript = await loadExportTranscript(services.library, id);
      return {
        ...previewExport(format, transcript, options),
        fileName: exportFileName(transcript.title, format),
      };
    },
    'export.chooseFile': async ({ format, fileName }) => {
      const path = await dialogs().saveFile({
        title: 'Save the export',
        defaultPath: join(folder(), fileName),
        filters: [{ name: exportFormatLabels[format], extensions: [format] }],
      });
      if (path) seen(dirname(path));
      return { path };
    },
    'export.chooseFolder': async () => {
      const path = await dialogs().chooseFolder({ title: 'Export into this folder', defaultPath: folder() });
      seen(path);
      return { path };
    },
    'export.save': async ({ id, format, options, path, replace }) => {
      const target = withExtension(requireAbsolute(path), format);
      const transcript = await loadExportTranscript(services.library, id);
      const { bytes, warnings } = await exportTranscript(format, transcript, options);
      // A file already there is replaced only when the user said so; else a conflict they answer.
      await writeExportFile(target, bytes, {
        replace: replace ?? false,
        folderWasThere: wasThere(dirname(target)),
      });
      await remember(format, options);
      return { path: target, warnings };
    },
    'export.batch': async ({ batchId, ids, format, options, folder: target }) => {
      const results = await exportBatch({
        library: services.library,
        ids,
        format,
        options,
        folder: requireAbsolute(target),
        folderWasThere: wasThere(target),
        onItem: (item, index) => services.exportProgress.emit({ ...item, batchId, index, total: ids.length }),
      });
      await remember(format, options);
      return { results };
    },
  };
}
