import { app, Notification, type BrowserWindow } from 'electron';
import type { AttentionPort } from '../core/desktop-attention';

/**
 * DesktopAttention on Electron: OS notifications, the window's progress bar (dock on macOS,
 * taskbar on Windows, launcher on Unity/KDE) and the app's badge count. Windows has no badge
 * count (app.setBadgeCount does nothing there); its taskbar progress bar still shows uploads.
 */
export function electronAttentionPort(options: {
  mainWindow: () => BrowserWindow | undefined;
  /** A notification was clicked: bring the window forward on that transcript. */
  openTranscript: (id: string) => void;
}): AttentionPort {
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
      app.setBadgeCount(count);
    },
  };
}
