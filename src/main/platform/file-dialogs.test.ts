import { describe, expect, it, vi } from 'vitest';
import type { ElectronMock } from './electron-mock.test-kit';
import { FakeBrowserWindow } from './electron-mock.test-kit';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

const electron = (await import('electron')) as unknown as ElectronMock;
const { electronFileDialogs } = await import('./file-dialogs');

describe('the OS file dialogs', () => {
  it('saves through the save dialog on the focused window, with the format filter', async () => {
    const window = new FakeBrowserWindow({});
    FakeBrowserWindow.focused = window;
    electron.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: '/home/r/Ferry.docx' });
    const filters = [{ name: 'Word document (.docx)', extensions: ['docx'] }];
    const path = await electronFileDialogs().saveFile({
      title: 'Save',
      defaultPath: '/home/r/Ferry.docx',
      filters,
    });
    expect(path).toBe('/home/r/Ferry.docx');
    expect(electron.dialog.showSaveDialog).toHaveBeenLastCalledWith(window, {
      title: 'Save',
      defaultPath: '/home/r/Ferry.docx',
      filters,
      properties: ['showOverwriteConfirmation'],
    });
    electron.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true });
    expect(await electronFileDialogs().saveFile({ title: 'Save', defaultPath: '/x', filters })).toBeNull();
  });

  it('chooses a folder that may be created on the spot, and answers null when cancelled', async () => {
    FakeBrowserWindow.focused = null;
    FakeBrowserWindow.instances.length = 0;
    electron.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/home/r/Exports'] });
    expect(await electronFileDialogs().chooseFolder({ title: 'Export into', defaultPath: '/home/r' })).toBe(
      '/home/r/Exports',
    );
    // No window to attach to: the dialog opens on its own.
    expect(electron.dialog.showOpenDialog).toHaveBeenLastCalledWith({
      title: 'Export into',
      defaultPath: '/home/r',
      buttonLabel: 'Export here',
      properties: ['openDirectory', 'createDirectory'],
    });
    expect(
      await electronFileDialogs().chooseFolder({ title: 'Export into', defaultPath: '/home/r' }),
    ).toBeNull();
  });
});
