import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ElectronMock } from './electron-mock.test-kit';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

const electron = (await import('electron')) as unknown as ElectronMock;
const { FakeBrowserWindow, FakeNotification } = await import('./electron-mock.test-kit');
const { appUserModelId, electronAttentionPort } = await import('./desktop-attention-electron');
const { DesktopAttention } = await import('../core/app-policy/desktop-attention');

describe('the OS side of desktop attention', () => {
  beforeEach(() => {
    FakeNotification.shown.length = 0;
    FakeNotification.supported = true;
    vi.clearAllMocks();
  });

  it('shows a notification whose click opens the transcript, and the upload on the window’s icon', () => {
    const window = new FakeBrowserWindow({});
    const opened: string[] = [];
    const port = electronAttentionPort({
      mainWindow: () => window as never,
      openTranscript: (id) => opened.push(id),
    });
    const attention = new DesktopAttention(port, () => false);
    attention.jobChanged({ id: 'j1', title: 'Mayor interview', status: 'uploading', error: null });
    attention.uploadProgress('j1', 25, 100);
    attention.jobChanged({ id: 'j1', title: 'Mayor interview', status: 'processing', error: null });
    attention.jobChanged({ id: 'j1', title: 'Mayor interview', status: 'completed', error: null });

    expect(window.setProgressBar.mock.calls.map((call) => call[0] as number)).toEqual([-1, 0.25, -1]);
    expect(electron.app.setBadgeCount.mock.calls.map((call) => call[0])).toEqual([1, 0]);
    expect(FakeNotification.shown.map((note) => note.options)).toEqual([
      { title: 'Transcript ready', body: '“Mayor interview” is ready to read.' },
    ]);
    FakeNotification.shown[0]!.click();
    expect(opened).toEqual(['j1']);
  });

  it('shows running jobs on Windows as an overlay on the taskbar button, described in words', () => {
    const window = new FakeBrowserWindow({});
    const port = electronAttentionPort({
      mainWindow: () => window as never,
      openTranscript: () => undefined,
      platform: 'win32',
    });
    port.setBadge(2);
    port.setBadge(1);
    port.setBadge(0);
    const overlays = window.setOverlayIcon.mock.calls as unknown as [unknown, string][];
    expect(overlays.map(([image, description]) => [image === null ? null : 'dot', description])).toEqual([
      ['dot', '2 transcriptions running'],
      ['dot', '1 transcription running'],
      [null, ''],
    ]);
    expect(electron.app.setBadgeCount).not.toHaveBeenCalled();
    const [dataUrl] = electron.nativeImage.createFromDataURL.mock.calls[0]!;
    expect(Buffer.from(dataUrl.split(',')[1]!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('stays quiet where the OS has no notifications, and with no window to show progress on', () => {
    FakeNotification.supported = false;
    const port = electronAttentionPort({ mainWindow: () => undefined, openTranscript: () => undefined });
    port.notify({ title: 't', body: 'b', transcriptId: 'x' });
    port.setProgress(0.5);
    expect(FakeNotification.shown).toEqual([]);
  });

  it('names the app to Windows as its installer does, so notifications carry its name', async () => {
    const { readFileSync } = await import('node:fs');
    const yml = readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8');
    expect(/^appId: (.+)$/m.exec(yml)?.[1]).toBe(appUserModelId);
  });
});
