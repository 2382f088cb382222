import { BrowserWindow, screen, session, shell } from 'electron';
import type { BrowserWindowConstructorOptions, Event as ElectronEvent } from 'electron';
import { contentSecurityPolicy, devServerConnectSources } from '../core/app-policy/content-security-policy';
import { restoreWindowState, type WindowState } from '../core/app-policy/window-state';

export interface MainWindowOptions {
  preloadPath: string;
  /** A dev server URL, or undefined to load the built renderer from disk. */
  devServerUrl?: string;
  rendererHtmlPath: string;
  savedState: unknown;
  saveState: (state: WindowState) => void;
}

/** Every window of the app: isolated, sandboxed, no Node in the page. */
export function securePreferences(preloadPath: string): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    spellcheck: true,
  };
}

export function mainWindowOptions(state: WindowState, preloadPath: string): BrowserWindowConstructorOptions {
  return {
    title: 'Verbatim',
    width: state.width,
    height: state.height,
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    minWidth: 720,
    minHeight: 480,
    show: false,
    backgroundColor: '#1b1d22',
    webPreferences: securePreferences(preloadPath),
  };
}

/** Only http(s) links leave the app, and only to the OS browser. */
export function isExternalLink(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const state = restoreWindowState(options.savedState, workAreas);
  const window = new BrowserWindow(mainWindowOptions(state, options.preloadPath));
  if (state.maximized) window.maximize();

  const policy = contentSecurityPolicy({
    connectSources: devServerConnectSources(options.devServerUrl),
  });
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] },
    });
  });

  const denyNavigation = (event: ElectronEvent, url: string): void => {
    const allowed = options.devServerUrl && url.startsWith(options.devServerUrl);
    if (!allowed) {
      event.preventDefault();
      if (isExternalLink(url)) void shell.openExternal(url);
    }
  };
  window.webContents.on('will-navigate', denyNavigation);
  window.webContents.on('will-redirect', denyNavigation);
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());

  const remember = (): void => {
    const bounds = window.getNormalBounds();
    options.saveState({ ...bounds, maximized: window.isMaximized() });
  };
  window.on('close', remember);
  window.once('ready-to-show', () => window.show());

  if (options.devServerUrl) void window.loadURL(options.devServerUrl);
  else void window.loadFile(options.rendererHtmlPath);
  return window;
}
