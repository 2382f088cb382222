import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElectronMock } from './platform/electron-mock.test-kit';
import type { Envelope } from '../shared/ipc/envelope';

vi.mock('electron', async () => (await import('./platform/electron-mock.test-kit')).electronMock());

describe('quitting the desktop app', () => {
  it('holds the quit until the window stored its typing and the library closed, then quits once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-quit-'));
    process.env.VERBATIM_DATA_DIR = dataDir;
    process.env.VERBATIM_API_KEY = 'demo-key';
    const electron = (await import('electron')) as unknown as ElectronMock;
    const { FakeBrowserWindow } = await import('./platform/electron-mock.test-kit');
    await import('./index');
    electron.resolveReady();
    await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1));
    const window = FakeBrowserWindow.instances[0]!;
    const flushed = electron.ipcMain.handlers.get('corrections.flushed') as (
      event: unknown,
      input: unknown,
    ) => Promise<Envelope<unknown>>;
    const appFrame = { senderFrame: { url: 'file:///app/out/renderer/index.html' } };
    const quitRequests = (): { preventDefault: ReturnType<typeof vi.fn> } => {
      const event = { preventDefault: vi.fn() };
      for (const listener of electron.appListeners.get('before-quit') ?? []) listener(event);
      return event;
    };
    const flushRequests = (): unknown[] =>
      window.webContents.sent.filter(([channel]) => channel === 'event:corrections.flush').map(([, p]) => p);

    // The first quit is held while the window is asked to store what is being typed.
    expect(quitRequests().preventDefault).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(flushRequests()).toEqual([{ request: 1 }]));
    // A second quit while closing is held too, and asks nothing again.
    expect(quitRequests().preventDefault).toHaveBeenCalledTimes(1);
    expect(flushRequests()).toHaveLength(1);
    expect(electron.app.quit).not.toHaveBeenCalled();
    // The library is still open for the window's last edit.
    expect(await flushed(appFrame, { request: 1 })).toEqual({ ok: true, value: {} });

    // Once the window answered, every owner closes (the library last), then the app quits once.
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalledTimes(1));
    const listTranscripts = electron.ipcMain.handlers.get('transcripts.list')!;
    await expect(listTranscripts(appFrame, undefined)).resolves.toMatchObject({ ok: false });
    // The quit asked again goes through.
    expect(quitRequests().preventDefault).not.toHaveBeenCalled();
    expect(electron.app.quit).toHaveBeenCalledTimes(1);
    expect(readFileSync(join(dataDir, 'logs', 'verbatim.log'), 'utf8')).not.toContain('did not');
  });
});
