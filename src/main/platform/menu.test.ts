import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import type { ElectronMock } from './electron-mock.test-kit';
import { resolveKeymap } from '../../shared/keymap';
import { applicationMenuTemplate } from './menu';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

describe('the application menu', () => {
  it('has the usual roles on every platform, and the app menu on macOS', () => {
    const roles = (platform: NodeJS.Platform) =>
      JSON.stringify(applicationMenuTemplate(platform, 'Verbatim'));
    expect(roles('linux')).toContain('"editMenu"');
    expect(roles('linux')).toContain('"windowMenu"');
    expect(roles('linux')).toContain('"quit"');
    expect(roles('linux')).not.toContain('"hideOthers"');
    expect(applicationMenuTemplate('darwin', 'Verbatim')[0]?.label).toBe('Verbatim');
    expect(roles('darwin')).toContain('"hideOthers"');
  });

  it('Help → Show Log File reveals the log file in the file manager', async () => {
    const electron = (await import('electron')) as unknown as ElectronMock;
    const logFile = '/home/reporter/.config/Verbatim/logs/verbatim.log';
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const help = applicationMenuTemplate(platform, 'Verbatim', { logFile }).at(-1);
      expect(help?.role).toBe('help');
      const item = (help?.submenu as MenuItemConstructorOptions[]).find(
        (entry) => entry.label === 'Show Log File',
      );
      electron.shell.showItemInFolder.mockClear();
      (item?.click as () => void)();
      expect(electron.shell.showItemInFolder).toHaveBeenCalledExactlyOnceWith(logFile);
    }
  });

  it('Edit → Undo and Redo are sent to the page, their keys shown but left to the page', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const sent: string[] = [];
      const template = applicationMenuTemplate(platform, 'Verbatim', {
        onEditCommand: (action) => sent.push(action),
      });
      const edit = template.find((item) => item.label === 'Edit');
      const items = edit?.submenu as MenuItemConstructorOptions[];
      const undo = items.find((item) => item.label === 'Undo')!;
      const redo = items.find((item) => item.label === 'Redo')!;
      (undo.click as () => void)();
      (redo.click as () => void)();
      expect(sent).toEqual(['undo', 'redo']);
      // The keymap's own chords (Mod+Z, Mod+Shift+Z), so the menu and the help dialog agree.
      expect(undo.accelerator).toBe('CmdOrCtrl+Z');
      expect(redo.accelerator).toBe('CmdOrCtrl+Shift+Z');
      // Registered, the menu would take Ctrl+Z from a text field and the reader would undo twice.
      expect(undo.registerAccelerator).toBe(false);
      expect(redo.registerAccelerator).toBe(false);
      // The rest of the Edit menu keeps its native roles.
      expect(items.map((item) => item.role).filter(Boolean)).toEqual(
        expect.arrayContaining(['cut', 'copy', 'paste', 'selectAll']),
      );
    }
    // Without a page to ask (no handler), the native Edit menu stays.
    expect(applicationMenuTemplate('linux', 'Verbatim').some((item) => item.role === 'editMenu')).toBe(true);
  });

  it('shows Undo and Redo on the keys the journalist rebound them to', () => {
    const edit = (keymap: ReturnType<typeof resolveKeymap>) => {
      const template = applicationMenuTemplate('linux', 'Verbatim', { onEditCommand: () => {}, keymap });
      const items = template.find((item) => item.label === 'Edit')?.submenu as MenuItemConstructorOptions[];
      return (label: string) => items.find((item) => item.label === label)?.accelerator;
    };
    const rebound = edit(
      resolveKeymap(
        {
          playPauseKey: 'Escape',
          keyBindings: { 'corrections.undo': ['Alt+U'], 'corrections.redo': ['F4'] },
        },
        'linux',
      ),
    );
    expect(rebound('Undo')).toBe('Alt+U');
    expect(rebound('Redo')).toBe('F4');
  });
});
