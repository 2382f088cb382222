import { ipcMain, type WebContents } from 'electron';
import { methodNames, type EventName } from '../../shared/ipc/contract';
import type { Dispatch } from '../ipc/dispatcher';

/** One ipcMain handler per contract method, all going through the validating dispatcher. */
export function registerIpcHandlers(dispatch: Dispatch): () => void {
  for (const method of methodNames) {
    ipcMain.handle(method, (_event, input: unknown) => dispatch(method, input));
  }
  return () => {
    for (const method of methodNames) ipcMain.removeHandler(method);
  };
}

export function eventChannel(event: EventName): string {
  return `event:${event}`;
}

export function sendEvent(targets: () => WebContents[], event: EventName, payload: unknown): void {
  for (const contents of targets()) {
    if (!contents.isDestroyed()) contents.send(eventChannel(event), payload);
  }
}
