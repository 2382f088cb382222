import { ipcMain, type WebContents } from 'electron';
import { VerbatimError } from '../../shared/errors';
import { methodNames, type EventName } from '../../shared/ipc/contract';
import { failure } from '../../shared/ipc/envelope';
import type { Dispatch } from '../ipc/dispatcher';
import { toDisposable, type IDisposable } from '../base/lifecycle';

/**
 * One ipcMain handler per contract method, all going through the validating dispatcher. Only
 * the app's own pages may call: a frame from anywhere else (an iframe, a page navigated to by
 * mistake) is refused before the call reaches a handler. Disposing it removes every handler.
 */
export function registerIpcHandlers(dispatch: Dispatch, isAppPage: (url: string) => boolean): IDisposable {
  for (const method of methodNames) {
    ipcMain.handle(method, (event: { senderFrame?: { url: string } | null }, input: unknown) => {
      const url = event.senderFrame?.url ?? '';
      if (!isAppPage(url)) {
        return Promise.resolve(
          failure(
            new VerbatimError(
              'forbidden',
              `Only Verbatim's own window may do that, not ${url || 'an unknown page'}.`,
            ),
          ),
        );
      }
      return dispatch(method, input);
    });
  }
  return toDisposable(() => {
    for (const method of methodNames) ipcMain.removeHandler(method);
  });
}

export function eventChannel(event: EventName): string {
  return `event:${event}`;
}

export function sendEvent(targets: () => WebContents[], event: EventName, payload: unknown): void {
  for (const contents of targets()) {
    if (!contents.isDestroyed()) contents.send(eventChannel(event), payload);
  }
}
