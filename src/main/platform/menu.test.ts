import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import type { ElectronMock } from './electron-mock.test-kit';
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
});
