import { shell, type MenuItemConstructorOptions } from 'electron';
import type { EditMenuAction } from '../../shared/ipc/corrections-contract';
import { resolveKeymap, type ResolvedKeymap } from '../../shared/keymap';
import { commandAccelerator, keymapPlatformOf } from './menu-keys';

export interface MenuOptions {
  /** The log file (`<data>/logs/verbatim.log`) that Help → Show Log File reveals. */
  logFile?: string;
  /**
   * Edit → Undo and Redo, sent to the focused window: only the page knows whether the focus is
   * in a text field (its own undo) or in the transcript reader (the corrections' history).
   */
  onEditCommand?: (action: EditMenuAction) => void;
  /** The keys as the journalist set them (the defaults when absent): the menu shows the same. */
  keymap?: ResolvedKeymap;
}

/**
 * The Edit menu. With `onEditCommand`, Undo and Redo are the page's to decide; their
 * accelerators are only shown, not registered, so Ctrl/Cmd+Z still reaches the page as a key
 * (a field's native undo, the reader's handler) and is never done twice.
 */
function editMenu(
  mac: boolean,
  keymap: ResolvedKeymap,
  onEditCommand: MenuOptions['onEditCommand'],
): MenuItemConstructorOptions {
  if (!onEditCommand) return { role: 'editMenu' };
  return {
    label: 'Edit',
    submenu: [
      {
        label: 'Undo',
        accelerator: commandAccelerator(keymap, 'corrections.undo'),
        registerAccelerator: false,
        click: () => onEditCommand('undo'),
      },
      {
        label: 'Redo',
        accelerator: commandAccelerator(keymap, 'corrections.redo'),
        registerAccelerator: false,
        click: () => onEditCommand('redo'),
      },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      { role: 'selectAll' },
    ],
  };
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
    editMenu(
      mac,
      options.keymap ?? resolveKeymap({ playPauseKey: 'Escape' }, keymapPlatformOf(platform)),
      options.onEditCommand,
    ),
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
