import { describe, expect, it } from 'vitest';
import { denyPermissionsByDefault, isPermissionAllowed } from './permissions';

const isAppPage = (url: string): boolean => url.startsWith('file://');

describe('page permissions', () => {
  it('allow the app page to copy a quote, and nothing else to anyone', () => {
    expect(
      isPermissionAllowed('clipboard-sanitized-write', 'file:///app/out/renderer/index.html', isAppPage),
    ).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://example.com/', isAppPage)).toBe(false);
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'hid',
      'clipboard-read',
      'openExternal',
    ])
      expect(isPermissionAllowed(permission, 'file:///app/out/renderer/index.html', isAppPage)).toBe(false);
  });

  it('are answered by handlers on the session, for requests and checks alike', () => {
    type RequestHandler = (
      webContents: { getURL(): string },
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl?: string },
    ) => void;
    type CheckHandler = (webContents: unknown, permission: string, origin: string) => boolean;
    let request: RequestHandler | undefined;
    let check: CheckHandler | undefined;
    denyPermissionsByDefault(
      {
        setPermissionRequestHandler: (handler: unknown) => void (request = handler as RequestHandler),
        setPermissionCheckHandler: (handler: unknown) => void (check = handler as CheckHandler),
      },
      isAppPage,
    );
    const answers: boolean[] = [];
    const page = { getURL: () => 'file:///app/out/renderer/index.html' };
    request!(page, 'media', (granted) => answers.push(granted), {});
    request!(page, 'clipboard-sanitized-write', (granted) => answers.push(granted), {});
    request!(page, 'clipboard-sanitized-write', (granted) => answers.push(granted), {
      requestingUrl: 'https://ads.example/',
    });
    expect(answers).toEqual([false, true, false]);
    expect(check!(page, 'geolocation', 'file://')).toBe(false);
    expect(check!(page, 'clipboard-sanitized-write', 'file://')).toBe(true);
  });
});
