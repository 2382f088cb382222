import { app, nativeImage, Notification, type BrowserWindow } from 'electron';
import type { AttentionPort, BadgeParts } from '../core/app-policy/desktop-attention';
import type { StoredNotice } from '../../shared/collaboration-notice';

/**
 * The app's identity on Windows (electron-builder.yml's appId, which its installer registers):
 * without it, notifications come from "electron.app.Electron" or are dropped.
 */
export const appUserModelId = 'org.verbatim.desktop';

/** A 16 px red dot, the taskbar overlay for what waits on Windows (which has no badge count). */
const runningOverlay =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAATElEQVR42mNgoDbYKSOjBcSHgfg/GgaJaRHS3I9FIzrup0QzdkOgzv5PItZCNuAwGQYcRjbgPzl4mBlAcSBSFo0UJySqJGWqZCZyAABvhEFIDfF0SgAAAABJRU5ErkJggg==';

/** What the badge counts, in words (Windows describes its overlay to screen readers). */
export function badgeDescription({ running, unread }: BadgeParts): string {
  const parts = [
    running > 0 ? `${running} transcription${running === 1 ? '' : 's'} running` : '',
    unread > 0 ? `${unread} unread notice${unread === 1 ? '' : 's'}` : '',
  ];
  return parts.filter((part) => part !== '').join(', ');
}

/**
 * DesktopAttention on Electron: OS notifications, the window's progress bar (dock on macOS,
 * taskbar on Windows, launcher on Unity/KDE) and what waits (running jobs, unread notices) as
 * the app's badge count (macOS, Linux) or, on Windows, which has none, an overlay on the taskbar
 * button described in words.
 */
export function electronAttentionPort(options: {
  mainWindow: () => BrowserWindow | undefined;
  /** A notification was clicked: bring the window forward on that transcript. */
  openTranscript: (id: string) => void;
  /** A notice's notification was clicked: bring the window forward on what it is about. */
  openNotice: (notice: StoredNotice) => void;
  platform?: NodeJS.Platform;
}): AttentionPort {
  const platform = options.platform ?? process.platform;
  const show = (title: string, body: string, onClick: () => void): void => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body });
    notification.on('click', onClick);
    notification.show();
  };
  return {
    notify: ({ title, body, transcriptId }) => show(title, body, () => options.openTranscript(transcriptId)),
    notifyNotice: ({ title, body, notice }) => show(title, body, () => options.openNotice(notice)),
    setProgress: (fraction) => {
      const window = options.mainWindow();
      if (window && !window.isDestroyed()) window.setProgressBar(fraction ?? -1);
    },
    setBadge: (count, parts) => {
      if (platform !== 'win32') {
        app.setBadgeCount(count);
        return;
      }
      const window = options.mainWindow();
      if (!window || window.isDestroyed()) return;
      if (count === 0) window.setOverlayIcon(null, '');
      else window.setOverlayIcon(nativeImage.createFromDataURL(runningOverlay), badgeDescription(parts));
    },
  };
}
