import { app, BrowserWindow, Menu, session, shell } from 'electron';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { composeServices } from './compose';
import { createHandlers } from './ipc/create-handlers';
import { createDispatcher } from './ipc/dispatcher';
import { wireEvents } from './ipc/events';
import { registerIpcHandlers, sendEvent } from './platform/ipc-electron';
import { createMainWindow } from './platform/main-window';
import { upgradeLibraryWithWindow } from './platform/upgrade-window';
import { applicationMenuTemplate } from './platform/menu';
import { keymapPlatformOf } from './platform/menu-keys';
import { resolveKeymap } from '../shared/keymap';
import type { Settings } from '../shared/settings';
import { nodeFileSystem, writeFileAtomic } from './base/fs';
import { resolveDataFolder } from './core/data-folder/data-folder';
import { MemorySecrets, SecretStore } from './core/secrets/secret-store';
import { safeStorageCipher } from './platform/safe-storage-cipher';
import { handleMediaProtocol, registerMediaScheme } from './platform/media-protocol';
import { electronFileDialogs } from './platform/file-dialogs';
import { AssistantWindow } from './platform/assistant-window';
import { reportLaunchWhenLoaded } from './platform/launch-report';
import { MarkShortcut } from './platform/mark-shortcut';
import { defaultAudioBackend, nativeAssistantAudio, nativeRecordingInputOf } from './audio/native-audio';
import { electronMicrophoneAccess } from './platform/microphone-access-electron';
import { denyPermissionsByDefault } from './platform/permissions';
import { DesktopAttention } from './core/app-policy/desktop-attention';
import { inspectOpened, recordingArguments } from './core/app-policy/opened-recordings';
import { appUserModelId, electronAttentionPort } from './platform/desktop-attention-electron';
import { DisposableStore, toDisposable } from './base/lifecycle';
import { openLog } from './core/log/open-log';
import type { Secrets } from './core/secrets/secret-store';

const defaultDataDir = app.getPath('userData');
// Settled once the app is ready: the library may have been moved elsewhere (location.json).
let dataDir = process.env.VERBATIM_DATA_DIR ?? defaultDataDir;
const windowStatePath = (): string => join(dataDir, 'window-state.json');

// The one log, open from the first line: in the app's own folder (VERBATIM_DATA_DIR or userData),
// so it is there even when a moved library's folder is not. Keys are kept out of it once loaded.
let loadedSecrets: Secrets | undefined;
const { logger, path: logFile } = openLog({
  dataDir,
  level: process.env.VERBATIM_LOG_LEVEL,
  secrets: () => loadedSecrets,
  // `npm start` shows the log in its terminal too.
  echo: process.env.ELECTRON_RENDERER_URL ? process.stderr : undefined,
});
const log = logger.child('main');
process.on('unhandledRejection', (reason) => log.error('a promise failed and nobody was told', reason));
defaultAudioBackend.logTo((line) => logger.child('audio').warn(line));

// Everything the app opens for its lifetime (IPC handlers, event wiring, subscriptions, the
// shortcut), closed together when it quits.
const appLifetime = new DisposableStore();

function readSavedWindowState(): unknown {
  try {
    return JSON.parse(readFileSync(windowStatePath(), 'utf8'));
  } catch {
    return undefined;
  }
}

let mainWindow: BrowserWindow | undefined;
/** Whether the main window's page is loaded and listening for events. */
let rendererReady = false;
let composedServices: ReturnType<typeof composeServices> | undefined;
/** Set once every owner has closed: the quit that follows goes through. */
let closed = false;

// Recordings the OS opened with the app, until the page can take them: the first launch's
// arguments (Windows, Linux), macOS's open-file, a second instance's arguments.
const openedPaths: string[] = recordingArguments(process.argv, process.cwd());
async function offerOpenedRecordings(): Promise<void> {
  if (!rendererReady || !composedServices || openedPaths.length === 0) return;
  composedServices.openRecordings.emit(await inspectOpened(openedPaths.splice(0)));
}

const assistantWindow = new AssistantWindow({
  preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
  devServerUrl: process.env.ELECTRON_RENDERER_URL,
  rendererHtmlPath: join(import.meta.dirname, '../renderer/index.html'),
});

/** What the services stop when the main window goes (its page's newsroom watch). */
let mainWindowGone: (() => void) | undefined;

function openMainWindow(): void {
  mainWindow = createMainWindow({
    preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    rendererHtmlPath: join(import.meta.dirname, '../renderer/index.html'),
    savedState: readSavedWindowState(),
    saveState: (state) =>
      void writeFileAtomic(windowStatePath(), JSON.stringify(state)).catch((error: unknown) =>
        log.warn('the window’s size and place could not be saved', error),
      ),
  });
  mainWindow.webContents.once('did-finish-load', () => {
    rendererReady = true;
    void offerOpenedRecordings();
  });
  const launchReportPath = process.env.VERBATIM_LAUNCH_REPORT;
  if (launchReportPath) {
    reportLaunchWhenLoaded(
      mainWindow.webContents,
      (report) => writeFileAtomic(launchReportPath, JSON.stringify(report)),
      () => app.quit(),
    );
  }
  mainWindow.on('closed', () => {
    mainWindow = undefined;
    rendererReady = false;
    mainWindowGone?.();
  });
}

/** Brings the main window forward, opening it again where it was closed (macOS). */
function showMainWindow(): void {
  if (!mainWindow) {
    // Before start-up has composed the services, the window it is about to open will do.
    if (composedServices) openMainWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

registerMediaScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event, argv, workingDirectory) => {
    openedPaths.push(...recordingArguments(argv, workingDirectory));
    showMainWindow();
    void offerOpenedRecordings();
  });
  // macOS: a recording dropped on the Dock icon or opened with the app, even before it is ready.
  app.on('open-file', (event, path) => {
    event.preventDefault();
    openedPaths.push(path);
    showMainWindow();
    void offerOpenedRecordings();
  });

  // Every web contents, present and future: no new windows, no navigation away, no webviews.
  const devServerUrl = process.env.ELECTRON_RENDERER_URL;
  const isAppPage = (url: string): boolean =>
    url.startsWith('file://') || (devServerUrl !== undefined && url.startsWith(devServerUrl));
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https?:/i.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!isAppPage(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  if (process.platform === 'win32') app.setAppUserModelId(appUserModelId);
  app.on('will-quit', () => {
    try {
      appLifetime.dispose();
    } catch (error) {
      log.error('closing the app left something open', error);
    }
  });
  void app
    .whenReady()
    .then(async () => {
      log.info(`Verbatim ${app.getVersion()} started on ${process.platform}`);
      denyPermissionsByDefault(session.defaultSession, isAppPage);
      dataDir = await resolveDataFolder(defaultDataDir, process.env.VERBATIM_DATA_DIR);
      // A library an older Verbatim left is upgraded first, its progress in a window of its own.
      await upgradeLibraryWithWindow(join(dataDir, 'library.sqlite'));
      // Keys given in the environment (the demo, scripted runs) are used for this run only and
      // never stored.
      const secrets =
        process.env.VERBATIM_API_KEY || process.env.VERBATIM_CATALOG_KEY
          ? new MemorySecrets({
              transcriptionKey: process.env.VERBATIM_API_KEY,
              catalogKey: process.env.VERBATIM_CATALOG_KEY,
              managementKey: process.env.VERBATIM_MANAGEMENT_KEY,
            })
          : new SecretStore(nodeFileSystem, join(dataDir, 'secrets.json'), safeStorageCipher);
      await secrets.load();
      loadedSecrets = secrets;
      // The assistant and the recorder ask the OS once for the microphone (macOS).
      const microphoneAccess = electronMicrophoneAccess();
      const services = composeServices({
        dataDir,
        processDescription: 'the Verbatim app',
        appInfo: { name: 'Verbatim', version: app.getVersion(), platform: process.platform },
        secrets,
        defaultDataDir,
        relaunch: () => {
          app.relaunch();
          app.exit(0);
        },
        transcriptionUrlOverride: process.env.VERBATIM_TRANSCRIPTION_URL,
        catalogUrlOverride: process.env.VERBATIM_CATALOG_URL,
        gatewayUrlOverride: process.env.VERBATIM_GATEWAY_URL,
        voiceUrlOverride: process.env.VERBATIM_VOICE_URL,
        // PortAudio, and macOS's microphone permission asked before the first capture.
        voiceAudio: { ...nativeAssistantAudio, microphoneAccess },
        recordingInput: { ...nativeRecordingInputOf(defaultAudioBackend), microphoneAccess },
        openAssistantWindow: () => assistantWindow.open(),
        logger,
        exportPlatform: { dialogs: electronFileDialogs(), defaultFolder: app.getPath('documents') },
      });
      // A quit waits for what must not be cut: each window stores its typing, a recording's file
      // is finished, the uploads stop where they are, then the library closes (compose.ts).
      services.shutdown.onWillShutdown('the windows’ unsaved typing', () =>
        services.unsavedEdits.flush(
          BrowserWindow.getAllWindows().filter((window) => !window.isDestroyed()).length,
        ),
      );
      app.on('before-quit', (event) => {
        if (closed) return;
        // Electron does not wait for a promise: the quit is held, and asked again once closed.
        event.preventDefault();
        if (services.shutdown.started) return;
        void services.close().then(() => {
          closed = true;
          app.quit();
        });
      });
      // Settings first, then every job left unfinished by a quit or a crash continues where it
      // stopped (at the address Settings name), then the page may call.
      await services.start();
      const dispatch = createDispatcher(createHandlers(services), { logger: logger.child('ipc') });
      appLifetime.add(registerIpcHandlers(dispatch, isAppPage));
      // Ctrl+Shift+M marks a moment from any app while an interview is recorded (issue #23).
      appLifetime.add(new MarkShortcut(services.recorder, (message) => log.warn(message)));
      handleMediaProtocol((id, audio) => services.core.recordingOf(id, audio));
      // A newsroom search the window showed stops being listened to with it.
      mainWindowGone = () =>
        void services.newsroomReader
          .stopAllWatching()
          .catch((error: unknown) => log.warn('the newsroom watch did not close', error));
      appLifetime.add(
        wireEvents(services, (event, payload) =>
          sendEvent(() => BrowserWindow.getAllWindows().map((w) => w.webContents), event, payload),
        ),
      );
      // A click on a system notification: the window comes forward (opened first if closed) and shows it.
      const bringForwardThen = (show: () => void): void => {
        if (!mainWindow) {
          openMainWindow();
          mainWindow!.webContents.once('did-finish-load', show);
          return;
        }
        if (mainWindow.isMinimized()) mainWindow.restore();
        mainWindow.show();
        mainWindow.focus();
        show();
      };
      // Finished and failed jobs, upload progress and running jobs, shown by the OS.
      const attention = new DesktopAttention(
        electronAttentionPort({
          mainWindow: () => mainWindow,
          openTranscript: (id) => bringForwardThen(() => services.openTranscript.emit({ id })),
          openNotice: (notice) => bringForwardThen(() => services.core.notices.openRequested.emit(notice)),
        }),
        () => BrowserWindow.getFocusedWindow() !== null,
      );
      attention.seed(await services.core.library.list());
      // Working together (issue #36): a colleague's notice while the window is elsewhere, and the unread in the badge.
      attention.unreadNotices(await services.core.notices.unreadCount());
      appLifetime.add(
        services.core.notices.changed.subscribe(({ unread, added }) => {
          if (added) attention.noticeArrived(added);
          attention.unreadNotices(unread);
        }),
      );
      appLifetime.add(services.jobUpdated.subscribe((job) => attention.jobChanged(job)));
      appLifetime.add(
        services.jobProgress.subscribe(({ id, bytesSent, bytesTotal }) =>
          attention.uploadProgress(id, bytesSent, bytesTotal),
        ),
      );
      // The menu shows the keys as the journalist set them: rebuilt whenever they change.
      const platform = keymapPlatformOf(process.platform);
      let menuKeys = '';
      const showMenu = (settings: Settings): void => {
        const keymap = resolveKeymap(settings, platform);
        if (JSON.stringify(keymap) === menuKeys) return;
        menuKeys = JSON.stringify(keymap);
        Menu.setApplicationMenu(
          Menu.buildFromTemplate(
            applicationMenuTemplate(process.platform, 'Verbatim', {
              logFile,
              keymap,
              // Edit → Undo/Redo go to the window in front; its page decides what they undo.
              onEditCommand: (action) =>
                sendEvent(
                  () => {
                    const target = BrowserWindow.getFocusedWindow() ?? mainWindow;
                    return target ? [target.webContents] : [];
                  },
                  'corrections.menu',
                  { action },
                ),
            }),
          ),
        );
      };
      showMenu(await services.settings.get());
      appLifetime.add(services.settings.onChange(showMenu));
      composedServices = services;
      openMainWindow();
      if (assistantWindow.registerShortcut())
        appLifetime.add(toDisposable(() => assistantWindow.unregisterShortcut()));
      else log.warn('the assistant shortcut is taken by another app');
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) openMainWindow();
      });
    })
    .catch((error: unknown) => log.error('Verbatim could not start', error));

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
