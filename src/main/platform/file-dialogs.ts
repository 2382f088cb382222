import { BrowserWindow, dialog } from 'electron';
import type { FileDialogs } from '../core/export/export-platform';

/**
 * The OS save and folder dialogs, attached to the focused window so they open as its sheet
 * (macOS) or on top of it; a cancelled dialog answers null.
 */
export function electronFileDialogs(): FileDialogs {
  const parent = (): BrowserWindow | undefined =>
    BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0] ?? undefined;
  return {
    async saveFile({ title, defaultPath, filters }) {
      const options = { title, defaultPath, filters, properties: ['showOverwriteConfirmation' as const] };
      const window = parent();
      const result = window
        ? await dialog.showSaveDialog(window, options)
        : await dialog.showSaveDialog(options);
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    async chooseFolder({ title, defaultPath }) {
      const options = {
        title,
        defaultPath,
        buttonLabel: 'Export here',
        properties: ['openDirectory' as const, 'createDirectory' as const],
      };
      const window = parent();
      const result = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async openFile({ title, defaultPath, filters }) {
      const options = { title, defaultPath, filters, properties: ['openFile' as const] };
      const window = parent();
      const result = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
  };
}
