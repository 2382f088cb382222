import { vi } from 'vitest';

/**
 * A stand-in for the parts of Electron the main process uses. Electron's binary cannot be
 * loaded in plain Node, so tests `vi.mock('electron', () => electronMock())` and inspect
 * what the wiring asked of it.
 */
type Listener = (...args: unknown[]) => void;
type IpcHandler = (event: unknown, input: unknown) => unknown;

export class FakeWebContents {
  readonly listeners = new Map<string, Listener[]>();
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  readonly sent: [string, unknown][] = [];
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  isDestroyed(): boolean {
    return false;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
}

export class FakeBrowserWindow {
  static instances: FakeBrowserWindow[] = [];
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.instances;
  }
  static focused: FakeBrowserWindow | null = null;
  static getFocusedWindow(): FakeBrowserWindow | null {
    return FakeBrowserWindow.focused;
  }
  readonly webContents = new FakeWebContents();
  readonly listeners = new Map<string, Listener[]>();
  loaded: { url?: string; file?: string; query?: Record<string, string> } = {};
  maximized = false;
  constructor(readonly options: Record<string, unknown>) {
    FakeBrowserWindow.instances.push(this);
  }
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  loadURL(url: string): Promise<void> {
    this.loaded = { url };
    this.loadedUrls.push(url);
    return Promise.resolve();
  }
  loadFile(file: string, options?: { query?: Record<string, string> }): Promise<void> {
    this.loaded = options?.query ? { file, query: options.query } : { file };
    return Promise.resolve();
  }
  destroyed = false;
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Closes without asking: no 'close' event, as Electron's destroy(). */
  destroy(): void {
    this.destroyed = true;
  }
  /** Every URL loaded, in order (loadURL keeps the last in `loaded`). */
  readonly loadedUrls: string[] = [];
  maximize(): void {
    this.maximized = true;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    return { x: 10, y: 20, width: 1100, height: 700 };
  }
  show = vi.fn();
  focus = vi.fn();
  setProgressBar = vi.fn();
  setOverlayIcon = vi.fn();
  restore = vi.fn();
  isMinimized = vi.fn(() => false);
}

/** Notifications shown, with their click listeners, for tests to click. */
export class FakeNotification {
  static shown: FakeNotification[] = [];
  static supported = true;
  static isSupported(): boolean {
    return FakeNotification.supported;
  }
  private readonly listeners = new Map<string, Listener[]>();
  constructor(readonly options: { title: string; body: string }) {}
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  show(): void {
    FakeNotification.shown.push(this);
  }
  click(): void {
    for (const listener of this.listeners.get('click') ?? []) listener();
  }
}

export function electronMock() {
  const headerListeners: ((
    details: { responseHeaders: Record<string, string[]> },
    callback: (response: { responseHeaders: Record<string, string[]> }) => void,
  ) => void)[] = [];
  const appListeners = new Map<string, Listener[]>();
  const ipcHandlers = new Map<string, IpcHandler>();
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  return {
    BrowserWindow: FakeBrowserWindow,
    Notification: FakeNotification,
    nativeImage: { createFromDataURL: vi.fn((url: string) => ({ dataUrl: url })) },
    screen: { getAllDisplays: vi.fn(() => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: vi.fn(),
        setPermissionCheckHandler: vi.fn(),
        webRequest: {
          onHeadersReceived: vi.fn((listener: (typeof headerListeners)[number]) =>
            headerListeners.push(listener),
          ),
        },
      },
    },
    shell: {
      openExternal: vi.fn(() => Promise.resolve()),
      showItemInFolder: vi.fn((_path: string) => undefined),
    },
    dialog: {
      showSaveDialog: vi.fn((..._args: unknown[]) =>
        Promise.resolve<{ canceled: boolean; filePath?: string }>({ canceled: true }),
      ),
      showOpenDialog: vi.fn((..._args: unknown[]) =>
        Promise.resolve<{ canceled: boolean; filePaths: string[] }>({ canceled: true, filePaths: [] }),
      ),
    },
    globalShortcut: { register: vi.fn(() => true), unregister: vi.fn() },
    ipcMain: {
      /** The handlers registered now, by channel. */
      handlers: ipcHandlers,
      // Like Electron, a second handler for a channel is refused: it would mean one was never removed.
      handle: vi.fn((channel: string, handler: IpcHandler) => {
        if (ipcHandlers.has(channel))
          throw new Error(`Attempted to register a second handler for '${channel}'`);
        ipcHandlers.set(channel, handler);
      }),
      removeHandler: vi.fn((channel: string) => void ipcHandlers.delete(channel)),
    },
    safeStorage: {
      isEncryptionAvailable: vi.fn(() => true),
      encryptString: vi.fn((text: string) => Buffer.from(text).reverse()),
      decryptString: vi.fn((data: Buffer) => Buffer.from(data).reverse().toString()),
    },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })), setApplicationMenu: vi.fn() },
    app: {
      getPath: vi.fn(() => '/tmp/verbatim-test-user-data'),
      getVersion: vi.fn(() => '0.1.0'),
      setBadgeCount: vi.fn((_count: number) => true),
      requestSingleInstanceLock: vi.fn(() => true),
      quit: vi.fn(),
      relaunch: vi.fn(),
      exit: vi.fn(),
      whenReady: vi.fn(() => ready),
      on: vi.fn((event: string, listener: Listener) =>
        appListeners.set(event, [...(appListeners.get(event) ?? []), listener]),
      ),
    },
    headerListeners,
    appListeners,
    resolveReady: () => resolveReady(),
  };
}

export type ElectronMock = ReturnType<typeof electronMock>;
