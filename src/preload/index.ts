import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createBridgeApi } from '../shared/ipc/api';
import type { Envelope } from '../shared/ipc/envelope';

/**
 * The sandboxed preload: builds `window.api` from the contract's method list and exposes
 * nothing else. The renderer never sees ipcRenderer itself.
 */
const api = createBridgeApi(
  {
    invoke: (method, input) => ipcRenderer.invoke(method, input) as Promise<Envelope<unknown>>,
    subscribe: (event, listener) => {
      const channel = `event:${event}`;
      const handler = (_event: unknown, payload: unknown): void => listener(payload);
      ipcRenderer.on(channel, handler);
      return () => void ipcRenderer.removeListener(channel, handler);
    },
  },
  {
    // A dropped or picked file is already on disk: its path is all main needs.
    pathForFile: (file) => Promise.resolve(webUtils.getPathForFile(file as File)),
    mediaUrl: (id, audio) =>
      `verbatim-media://recording/${encodeURIComponent(id)}${audio === 'original' ? '?audio=original' : ''}`,
  },
);

contextBridge.exposeInMainWorld('api', api);
