import { shell, type MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  /** The log file (`<data>/logs/verbatim.log`) that Help → Show Log File reveals. */
  logFile?: string;
}

/**
 * The usual application menu, built from roles so every platform gets its native items, and a
 * Help menu that shows the log file in the file manager (what a journalist sends with a report).
 */
export function applicationMenuTemplate(
  platform: NodeJS.Platform,
  appName: string,
  options: MenuOptions = {},
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  );
  const { logFile } = options;
  if (logFile) {
    template.push({
      role: 'help',
      submenu: [{ label: 'Show Log File', click: () => shell.showItemInFolder(logFile) }],
    });
  }
  return template;
}
