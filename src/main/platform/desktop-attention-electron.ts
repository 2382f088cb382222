import { app, nativeImage, Notification, type BrowserWindow } from 'electron';
import type { AttentionPort } from '../core/app-policy/desktop-attention';

/**
 * The app's identity on Windows (electron-builder.yml's appId, which its installer registers):
 * without it, notifications come from "electron.app.Electron" or are dropped.
 */
export const appUserModelId = 'org.verbatim.desktop';

/** A 16 px red dot, the taskbar overlay for running jobs on Windows (which has no badge count). */
const runningOverlay =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAATElEQVR42mNgoDbYKSOjBcSHgfg/GgaJaRHS3I9FIzrup0QzdkOgzv5PItZCNuAwGQYcRjbgPzl4mBlAcSBSFo0UJySqJGWqZCZyAABvhEFIDfF0SgAAAABJRU5ErkJggg==';

/**
 * DesktopAttention on Electron: OS notifications, the window's progress bar (dock on macOS,
 * taskbar on Windows, launcher on Unity/KDE) and the running jobs as the app's badge count
 * (macOS, Linux) or, on Windows, which has none, an overlay on the taskbar button.
 */
export function electronAttentionPort(options: {
  mainWindow: () => BrowserWindow | undefined;
  /** A notification was clicked: bring the window forward on that transcript. */
  openTranscript: (id: string) => void;
  platform?: NodeJS.Platform;
}): AttentionPort {
  const platform = options.platform ?? process.platform;
  return {
    notify: ({ title, body, transcriptId }) => {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body });
      notification.on('click', () => options.openTranscript(transcriptId));
      notification.show();
    },
    setProgress: (fraction) => {
      const window = options.mainWindow();
      if (window && !window.isDestroyed()) window.setProgressBar(fraction ?? -1);
    },
    setBadge: (count) => {
      if (platform !== 'win32') {
        app.setBadgeCount(count);
        return;
      }
      const window = options.mainWindow();
      if (!window || window.isDestroyed()) return;
      if (count === 0) window.setOverlayIcon(null, '');
      else
        window.setOverlayIcon(
          nativeImage.createFromDataURL(runningOverlay),
          `${count} transcription${count === 1 ? '' : 's'} running`,
        );
    },
  };
}
