import type { Session } from 'electron';

/**
 * Electron grants a page every permission it asks for unless told otherwise (camera,
 * microphone, geolocation, notifications, HID…). Verbatim's pages need one: writing plain
 * text to the clipboard for Copy quote. Audio is captured in the main process, never by the page.
 */
const allowedPermissions = new Set(['clipboard-sanitized-write']);

export function isPermissionAllowed(
  permission: string,
  requestingUrl: string,
  isAppPage: (url: string) => boolean,
): boolean {
  return allowedPermissions.has(permission) && isAppPage(requestingUrl);
}

/** Denies every permission but the app page's own clipboard writes, asked or merely checked. */
export function denyPermissionsByDefault(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
  isAppPage: (url: string) => boolean,
): void {
  session.setPermissionRequestHandler((webContents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl || webContents.getURL(), isAppPage));
  });
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin, isAppPage),
  );
}
