import { describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElectronMock } from './platform/electron-mock.test-kit';
import { methodNames } from '../shared/ipc/contract';
import { defaultSettings } from '../shared/settings';
import type { Envelope } from '../shared/ipc/envelope';
import type { MenuItemConstructorOptions } from 'electron';

vi.mock('electron', async () => (await import('./platform/electron-mock.test-kit')).electronMock());

describe('the Electron composition root', () => {
  it('registers one IPC handler per contract method, a menu and a window once ready', async () => {
    process.env.VERBATIM_DATA_DIR = mkdtempSync(join(tmpdir(), 'verbatim-main-'));
    // The demo hands the app the emulator's keys this way: for this run only, never stored.
    process.env.VERBATIM_API_KEY = 'demo-key';
    process.env.VERBATIM_CATALOG_KEY = 'demo-catalog-key';
    const electron = (await import('electron')) as unknown as ElectronMock;
    const { FakeBrowserWindow } = await import('./platform/electron-mock.test-kit');
    await import('./index');
    expect(electron.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(electron.ipcMain.handle).not.toHaveBeenCalled();

    electron.resolveReady();
    await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1));

    const channels = electron.ipcMain.handle.mock.calls.map((call) => call[0]);
    expect(channels.sort()).toEqual([...methodNames].sort());
    expect(electron.Menu.setApplicationMenu).toHaveBeenCalled();
    // Permissions are denied by default before any window opens.
    expect(electron.session.defaultSession.setPermissionRequestHandler).toHaveBeenCalledTimes(1);
    expect(electron.session.defaultSession.setPermissionCheckHandler).toHaveBeenCalledTimes(1);
    // Every web contents refuses navigation away from the app and webviews.
    const contents = new (await import('./platform/electron-mock.test-kit')).FakeWebContents();
    for (const listener of electron.appListeners.get('web-contents-created') ?? []) listener({}, contents);
    const away = { preventDefault: vi.fn() };
    contents.emit('will-navigate', away, 'https://example.com/');
    expect(away.preventDefault).toHaveBeenCalled();
    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();

    // A registered handler really runs the contract: set a setting, then read it back.
    const handler = (name: string) =>
      electron.ipcMain.handle.mock.calls.find((call) => call[0] === name)![1] as (
        event: unknown,
        input: unknown,
      ) => Promise<Envelope<unknown>>;
    // Only the app's own page may call; a frame from elsewhere is refused before any handler.
    const appFrame = { senderFrame: { url: 'file:///app/out/renderer/index.html' } };
    expect(
      await handler('settings.set')({ senderFrame: { url: 'https://example.com/' } }, { theme: 'dark' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await handler('settings.get')({}, undefined)).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await handler('secrets.status')(appFrame, undefined)).toMatchObject({
      ok: true,
      value: { transcriptionKeySet: true, catalogKeySet: true, managementKeySet: false },
    });
    expect(existsSync(join(process.env.VERBATIM_DATA_DIR, 'secrets.json'))).toBe(false);
    expect(await handler('settings.set')(appFrame, { theme: 'dark' })).toMatchObject({ ok: true });
    expect(await handler('settings.get')(appFrame, undefined)).toMatchObject({
      ok: true,
      value: { theme: 'dark' },
    });
    expect(await handler('settings.set')(appFrame, { theme: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });

    // A rebound Undo reaches the application menu, which is built again with the new key.
    const editMenu = () => {
      const template = electron.Menu.buildFromTemplate.mock.calls.at(-1)![0] as MenuItemConstructorOptions[];
      return template.find((item) => item.label === 'Edit')!.submenu as MenuItemConstructorOptions[];
    };
    expect(editMenu().find((item) => item.label === 'Undo')?.accelerator).toBe('CmdOrCtrl+Z');
    expect(
      await handler('settings.set')(appFrame, { keyBindings: { 'corrections.undo': ['Alt+U'] } }),
    ).toMatchObject({ ok: true });
    expect(editMenu().find((item) => item.label === 'Undo')?.accelerator).toBe('Alt+U');
    expect(await handler('settings.set')(appFrame, { keyBindings: {} })).toMatchObject({ ok: true });

    // Main pushes the change to every window.
    const window = FakeBrowserWindow.instances[0]!;
    expect(window.webContents.sent).toContainEqual([
      'event:settings.changed',
      { ...defaultSettings, theme: 'dark' },
    ]);

    // A second launch focuses the existing window instead of opening another, and a recording
    // it was given ("Open with Verbatim") starts a New transcription in the loaded page.
    window.webContents.emit('did-finish-load');
    const recording = join(import.meta.dirname, '../../test/fixtures/press-statement.wav');
    for (const listener of electron.appListeners.get('second-instance') ?? [])
      listener({}, ['/opt/Verbatim/verbatim', '--flag', recording], '/home/reporter');
    expect(window.focus).toHaveBeenCalled();
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    await vi.waitFor(() =>
      expect(window.webContents.sent).toContainEqual([
        'event:app.openRecordings',
        {
          recordings: [{ path: recording, name: 'press-statement.wav', size: statSync(recording).size }],
          refused: [],
        },
      ]),
    );

    // One log, in the data folder; Help → Show Log File reveals it; the renderer writes to it.
    const logFile = join(process.env.VERBATIM_DATA_DIR, 'logs', 'verbatim.log');
    expect(readFileSync(logFile, 'utf8')).toContain('[main] Verbatim 0.1.0 started');
    const menu = electron.Menu.buildFromTemplate.mock.calls[0]![0] as MenuItemConstructorOptions[];
    const help = menu.find((item) => item.role === 'help')!.submenu as MenuItemConstructorOptions[];
    (help.find((item) => item.label === 'Show Log File')!.click as () => void)();
    expect(electron.shell.showItemInFolder).toHaveBeenCalledWith(logFile);
    expect(
      await handler('log.write')(appFrame, { level: 'warn', message: 'the page used demo-key' }),
    ).toEqual({ ok: true, value: {} });
    const logged = readFileSync(logFile, 'utf8');
    expect(logged).toContain('WARN  [renderer] the page used [redacted]');
    expect(logged).not.toContain('demo-key');

    // Quitting closes what the app opened: every IPC handler, and the events to the windows.
    const setSettings = handler('settings.set');
    for (const listener of electron.appListeners.get('will-quit') ?? []) listener();
    expect(electron.ipcMain.handlers.size).toBe(0);
    const sent = window.webContents.sent.length;
    expect(await setSettings(appFrame, { theme: 'light' })).toMatchObject({ ok: true });
    expect(window.webContents.sent).toHaveLength(sent);
  });
});
