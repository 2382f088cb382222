import { describe, expect, it, vi } from 'vitest';
import { methodNames } from '../shared/ipc/contract';

const exposed = new Map<string, unknown>();
const invoke = vi.fn((channel: string, input: unknown) =>
  Promise.resolve({ ok: true, value: { channel, input } }),
);
const listeners = new Map<string, (event: unknown, payload: unknown) => void>();

vi.mock('electron', () => ({
  webUtils: { getPathForFile: (file: { name: string }) => `/Users/reporter/${file.name}` },
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
  ipcRenderer: {
    invoke,
    on: (channel: string, listener: (event: unknown, payload: unknown) => void) =>
      listeners.set(channel, listener),
    removeListener: (channel: string) => listeners.delete(channel),
  },
}));

describe('the preload', () => {
  it('knows where a dropped file lives and where to play a recording from', async () => {
    await import('./index');
    const api = exposed.get('api') as {
      local: { pathForFile: (f: unknown) => Promise<string>; mediaUrl: (id: string) => string };
    };
    expect(await api.local.pathForFile({ name: 'interview.m4a' })).toBe('/Users/reporter/interview.m4a');
    expect(api.local.mediaUrl('a b')).toBe('verbatim-media://recording/a%20b');
  });

  it('exposes only window.api, with one function per contract method over ipcRenderer.invoke', async () => {
    await import('./index');
    expect([...exposed.keys()]).toEqual(['api']);
    const api = exposed.get('api') as Record<string, Record<string, (input?: unknown) => Promise<unknown>>>;
    for (const method of methodNames) {
      const [namespace, name] = method.split('.') as [string, string];
      expect(await api[namespace]![name]!({ n: 1 })).toEqual({
        ok: true,
        value: { channel: method, input: { n: 1 } },
      });
    }
    expect(invoke).toHaveBeenCalledTimes(methodNames.length);
    expect(Object.keys(api).sort()).toEqual(
      [...new Set(methodNames.map((m) => m.split('.')[0]!)), 'local', 'on'].sort(),
    );
  });

  it('forwards main events to subscribers and stops on unsubscribe', async () => {
    await import('./index');
    const api = exposed.get('api') as {
      on: (event: string, listener: (payload: unknown) => void) => () => void;
    };
    const seen: unknown[] = [];
    const stop = api.on('settings.changed', (payload) => seen.push(payload));
    listeners.get('event:settings.changed')?.({}, { theme: 'dark' });
    stop();
    expect(listeners.has('event:settings.changed')).toBe(false);
    expect(seen).toEqual([{ theme: 'dark' }]);
  });
});
