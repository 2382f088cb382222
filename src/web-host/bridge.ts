// Runs in the browser page the web host serves, before the renderer: builds `window.api` from
// the contract over a WebSocket, exactly as the Electron preload does over ipcRenderer.
import { createBridgeApi } from '../shared/ipc/api';
import type { Envelope } from '../shared/ipc/envelope';
import type { EventName } from '../shared/ipc/contract';

const tokenKey = 'verbatim.webHostToken';
const socketPath = '/__verbatim/api';

function takeToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(tokenKey, fromUrl);
    // Keep the token out of the address bar, history and screenshots.
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.toString());
    return fromUrl;
  }
  return sessionStorage.getItem(tokenKey) ?? '';
}

type Pending = { resolve: (envelope: Envelope<unknown>) => void };

const token = takeToken();
const pending = new Map<number, Pending>();
const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
const queue: string[] = [];
let nextId = 1;
let socket: WebSocket | undefined;
let retryDelay = 250;

function connect(): void {
  const url = `${window.location.origin.replace(/^http/, 'ws')}${socketPath}?token=${encodeURIComponent(token)}`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.addEventListener('open', () => {
    retryDelay = 250;
    for (const message of queue.splice(0)) ws.send(message);
  });
  ws.addEventListener('message', (event: MessageEvent<string>) => {
    const message = JSON.parse(event.data) as
      { id: number; result: Envelope<unknown> } | { event: EventName; payload: unknown };
    if ('id' in message) {
      pending.get(message.id)?.resolve(message.result);
      pending.delete(message.id);
    } else {
      for (const listener of listeners.get(message.event) ?? []) listener(message.payload);
    }
  });
  ws.addEventListener('close', () => {
    socket = undefined;
    // Calls in flight when the host went away can never be answered: say so.
    for (const [id, call] of pending) {
      call.resolve({
        ok: false,
        error: { code: 'network', message: 'The connection to Verbatim was lost. Try again.' },
      });
      pending.delete(id);
    }
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  });
}

connect();

window.api = createBridgeApi(
  {
    invoke: (method, input) =>
      new Promise<Envelope<unknown>>((resolve) => {
        const id = nextId++;
        pending.set(id, { resolve });
        const message = JSON.stringify({ id, method, input });
        if (socket?.readyState === WebSocket.OPEN) socket.send(message);
        else queue.push(message);
      }),
    subscribe: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => void set.delete(listener);
    },
  },
  {
    // A browser never reveals a file's path: send its bytes to the host, which stores them.
    pathForFile: async (file) => {
      const name = 'name' in file && typeof file.name === 'string' ? file.name : 'recording';
      const response = await fetch(
        `/__verbatim/files?token=${encodeURIComponent(token)}&name=${encodeURIComponent(name)}`,
        {
          method: 'POST',
          body: file,
        },
      );
      if (!response.ok) throw new Error('The file could not be handed to Verbatim.');
      return ((await response.json()) as { path: string }).path;
    },
    mediaUrl: (id, audio) =>
      `/__verbatim/media/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}${audio === 'original' ? '&audio=original' : ''}`,
  },
);
