import type { BridgeApi } from '../../shared/ipc/api';

declare global {
  interface Window {
    /** Provided by the Electron preload or the web host's bridge: the renderer cannot tell which. */
    api: BridgeApi;
  }
}

export {};
