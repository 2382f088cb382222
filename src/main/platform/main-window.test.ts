import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ElectronMock } from './electron-mock.test-kit';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

const electron = (await import('electron')) as unknown as ElectronMock;
const { FakeBrowserWindow } = await import('./electron-mock.test-kit');
const { createMainWindow, isExternalLink } = await import('./main-window');

function open(savedState: unknown = undefined, devServerUrl?: string) {
  const saveState = vi.fn();
  createMainWindow({
    preloadPath: '/app/out/preload/index.cjs',
    rendererHtmlPath: '/app/out/renderer/index.html',
    savedState,
    saveState,
    devServerUrl,
  });
  return { window: FakeBrowserWindow.instances.at(-1)!, saveState };
}

describe('the main window', () => {
  beforeEach(() => {
    FakeBrowserWindow.instances.length = 0;
    vi.clearAllMocks();
  });

  it('is isolated, sandboxed and without Node in the page', () => {
    const { window } = open();
    expect(window.options).toMatchObject({
      title: 'Verbatim',
      show: false,
      webPreferences: {
        preload: '/app/out/preload/index.cjs',
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webviewTag: false,
        webSecurity: true,
      },
    });
    expect(window.loaded).toEqual({ file: '/app/out/renderer/index.html' });
  });

  it('sends a strict Content-Security-Policy with every response', () => {
    open();
    const listener = electron.headerListeners.at(-1)!;
    let headers: Record<string, string[]> = {};
    listener({ responseHeaders: { 'X-Other': ['1'] } }, (response) => (headers = response.responseHeaders));
    const policy = headers['Content-Security-Policy']?.[0] ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("object-src 'none'");
    expect(headers['X-Other']).toEqual(['1']);
  });

  it('denies navigation and new windows, sending http(s) links to the OS browser only', () => {
    const { window } = open();
    const preventDefault = vi.fn();
    window.webContents.emit('will-navigate', { preventDefault }, 'https://example.org/story');
    expect(preventDefault).toHaveBeenCalled();
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://example.org/story');

    window.webContents.emit('will-navigate', { preventDefault }, 'file:///etc/passwd');
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1);

    expect(window.webContents.windowOpenHandler?.({ url: 'javascript:alert(1)' })).toEqual({
      action: 'deny',
    });
    expect(window.webContents.windowOpenHandler?.({ url: 'http://example.org' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenLastCalledWith('http://example.org');
    expect(isExternalLink('mailto:a@b.c')).toBe(false);
  });

  it('lets the dev server reload the page in development, and nothing else', () => {
    const { window } = open(undefined, 'http://localhost:5173/');
    expect(window.loaded).toEqual({ url: 'http://localhost:5173/' });
    const preventDefault = vi.fn();
    window.webContents.emit('will-navigate', { preventDefault }, 'http://localhost:5173/#/settings');
    expect(preventDefault).not.toHaveBeenCalled();
    window.webContents.emit('will-navigate', { preventDefault }, 'http://evil.example/');
    expect(preventDefault).toHaveBeenCalled();
  });

  it('restores the remembered size and position and saves them on close', () => {
    const { window, saveState } = open({ x: 50, y: 60, width: 1000, height: 700, maximized: true });
    expect(window.options).toMatchObject({ x: 50, y: 60, width: 1000, height: 700 });
    expect(window.maximized).toBe(true);
    window.emit('close');
    expect(saveState).toHaveBeenCalledWith({ x: 10, y: 20, width: 1100, height: 700, maximized: true });
  });
});
