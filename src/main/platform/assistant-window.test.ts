import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ElectronMock } from './electron-mock.test-kit';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

const electron = (await import('electron')) as unknown as ElectronMock;
const { FakeBrowserWindow } = await import('./electron-mock.test-kit');
const { ASSISTANT_SHORTCUT, AssistantWindow } = await import('./assistant-window');

const paths = { preloadPath: '/app/out/preload/index.cjs', rendererHtmlPath: '/app/out/renderer/index.html' };

describe('the assistant window', () => {
  beforeEach(() => {
    FakeBrowserWindow.instances.length = 0;
    vi.clearAllMocks();
  });

  it('is a small, always-on-top, sandboxed window showing the assistant alone', () => {
    new AssistantWindow(paths).open();
    const window = FakeBrowserWindow.instances.at(-1)!;
    expect(window.options).toMatchObject({
      alwaysOnTop: true,
      width: 420,
      webPreferences: {
        preload: paths.preloadPath,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
      },
    });
    expect(window.loaded).toEqual({ file: paths.rendererHtmlPath, query: { window: 'assistant' } });
  });

  it('brings the open window forward instead of opening a second one', () => {
    const assistant = new AssistantWindow(paths);
    assistant.open();
    assistant.open();
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    expect(FakeBrowserWindow.instances[0]!.focus).toHaveBeenCalled();
    FakeBrowserWindow.instances[0]!.emit('closed');
    assistant.open();
    expect(FakeBrowserWindow.instances).toHaveLength(2);
  });

  it('loads the dev server with the assistant query in development', () => {
    new AssistantWindow({ ...paths, devServerUrl: 'http://localhost:5173/' }).open();
    expect(FakeBrowserWindow.instances.at(-1)!.loaded).toEqual({
      url: 'http://localhost:5173/?window=assistant',
    });
  });

  it('opens from a global shortcut', () => {
    const assistant = new AssistantWindow(paths);
    expect(assistant.registerShortcut()).toBe(true);
    expect(electron.globalShortcut.register).toHaveBeenCalledWith(ASSISTANT_SHORTCUT, expect.any(Function));
    const [, open] = electron.globalShortcut.register.mock.calls[0] as unknown as [string, () => void];
    open();
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    assistant.unregisterShortcut();
    expect(electron.globalShortcut.unregister).toHaveBeenCalledWith(ASSISTANT_SHORTCUT);
  });
});
