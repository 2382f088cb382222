import { describe, expect, it, vi } from 'vitest';
import type { ElectronMock } from './electron-mock.test-kit';
import { methodNames } from '../../shared/ipc/contract';
import { success } from '../../shared/ipc/envelope';
import { registerIpcHandlers } from './ipc-electron';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

describe('IPC registration', () => {
  it('registers one handler per method and removes every one when disposed, once', async () => {
    const electron = (await import('electron')) as unknown as ElectronMock;
    const dispatch = vi.fn((method: string) => Promise.resolve(success(method)));
    const registration = registerIpcHandlers(dispatch, (url) => url.startsWith('file://'));
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual([...methodNames].sort());

    const handler = electron.ipcMain.handlers.get('app.info')!;
    expect(await handler({ senderFrame: { url: 'file:///app/index.html' } }, undefined)).toEqual(
      success('app.info'),
    );

    registration.dispose();
    expect(electron.ipcMain.handlers.size).toBe(0);
    expect(electron.ipcMain.removeHandler).toHaveBeenCalledTimes(methodNames.length);
    registration.dispose();
    expect(electron.ipcMain.removeHandler).toHaveBeenCalledTimes(methodNames.length);

    // A new window's registration after the old one is gone is not a second handler.
    const again = registerIpcHandlers(dispatch, () => true);
    expect(electron.ipcMain.handlers.size).toBe(methodNames.length);
    again.dispose();
  });

  it('refuses to register twice without disposing in between (as Electron does)', () => {
    const first = registerIpcHandlers(vi.fn(), () => true);
    expect(() => registerIpcHandlers(vi.fn(), () => true)).toThrow(/second handler/);
    first.dispose();
  });
});
