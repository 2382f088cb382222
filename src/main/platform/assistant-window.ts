import { BrowserWindow, globalShortcut, shell } from 'electron';
import type { BrowserWindowConstructorOptions } from 'electron';
import { isExternalLink, securePreferences } from './main-window';

/**
 * The assistant's own window: small, and able to stay on top of the reporter's other work. It
 * shows the renderer's Assistant view alone (?window=assistant). One at a time: opening it
 * again brings the existing one forward.
 */

/** Summons the assistant from anywhere, even when Verbatim is in the background. */
export const ASSISTANT_SHORTCUT = 'CommandOrControl+Shift+Space';

export interface AssistantWindowOptions {
  preloadPath: string;
  devServerUrl?: string | undefined;
  rendererHtmlPath: string;
}

export function assistantWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    title: 'Verbatim Assistant',
    width: 420,
    height: 640,
    minWidth: 320,
    minHeight: 360,
    alwaysOnTop: true,
    show: false,
    backgroundColor: '#1b1d22',
    webPreferences: securePreferences(preloadPath),
  };
}

export class AssistantWindow {
  private window: BrowserWindow | undefined;

  constructor(private readonly options: AssistantWindowOptions) {}

  open(): void {
    if (this.window && !this.window.isDestroyed()) {
      if (this.window.isMinimized()) this.window.restore();
      this.window.show();
      this.window.focus();
      return;
    }
    const window = new BrowserWindow(assistantWindowOptions(this.options.preloadPath));
    this.window = window;
    window.on('closed', () => {
      if (this.window === window) this.window = undefined;
    });
    window.once('ready-to-show', () => window.show());
    window.webContents.on('will-navigate', (event, url) => {
      event.preventDefault();
      if (isExternalLink(url)) void shell.openExternal(url);
    });
    if (this.options.devServerUrl) {
      const url = new URL(this.options.devServerUrl);
      url.searchParams.set('window', 'assistant');
      void window.loadURL(url.toString());
    } else {
      void window.loadFile(this.options.rendererHtmlPath, { query: { window: 'assistant' } });
    }
  }

  /** Registers the global shortcut; false when another app already holds it. */
  registerShortcut(): boolean {
    return globalShortcut.register(ASSISTANT_SHORTCUT, () => this.open());
  }

  unregisterShortcut(): void {
    globalShortcut.unregister(ASSISTANT_SHORTCUT);
  }
}
