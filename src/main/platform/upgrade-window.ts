import { BrowserWindow } from 'electron';
import { upgradeLibraryOffThread } from '../core/library/library-upgrade';
import { upgradePageUrl, type UpgradeScreen } from '../core/app-policy/upgrade-page';
import type { UpgradeProgress } from '../core/library/upgrade-plan';

/**
 * Upgrades the library at `libraryPath` before the main window opens, when a library an older
 * Verbatim left needs it: the upgrade runs in a worker, and a small window says what it is
 * doing, how far along and about how long is left, so the app never looks hung. A library at
 * the latest format opens at once, with no window. Resolves once the library is ready.
 */
export async function upgradeLibraryWithWindow(libraryPath: string): Promise<void> {
  let window: UpgradeWindow | undefined;
  try {
    await upgradeLibraryOffThread(libraryPath, {
      onProgress: (progress) => (window ??= new UpgradeWindow()).show(progress),
      onWaitingForUpgrade: () => (window ??= new UpgradeWindow()).show(undefined),
    });
  } finally {
    window?.close();
  }
}

class UpgradeWindow {
  private readonly window = new BrowserWindow({
    title: 'Updating your library',
    width: 460,
    height: 220,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    backgroundColor: '#1b1d22',
    // A page the app wrote with nothing to run: no preload, no scripts, no Node.
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false },
  });
  private screen: UpgradeScreen = { closeAsked: false };
  private finished = false;

  constructor() {
    // Closing would not stop the upgrade (the app cannot start before it ends): it says so.
    this.window.on('close', (event: { preventDefault: () => void }) => {
      if (this.finished) return;
      event.preventDefault();
      this.screen = { ...this.screen, closeAsked: true };
      this.render();
    });
  }

  /** Where the upgrade stands, or undefined while this app waits for another's. */
  show(progress: UpgradeProgress | undefined): void {
    this.screen = { ...this.screen, progress };
    this.render();
  }

  close(): void {
    this.finished = true;
    if (!this.window.isDestroyed()) this.window.destroy();
  }

  private render(): void {
    // A page still loading when the next step's replaces it is aborted: that one is not missed.
    this.window.loadURL(upgradePageUrl(this.screen)).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'ERR_ABORTED') throw error;
    });
  }
}
